package ht.platform.wallet.service;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/** A batch worked one item after another (one database session at a time); one item's failure never stops the rest. */
final class Batch {

    private Batch() { }

    /** Answers how many items were worked. */
    static <T> Uni<Integer> inTurn(List<T> items, Function<T, Uni<?>> work, BiConsumer<T, Throwable> failed) {
        return Multi.createFrom().iterable(items)
                .onItem().transformToUniAndConcatenate(item -> work.apply(item).onFailure().invoke(e -> failed.accept(item, e))
                        .onFailure().recoverWithNull())
                .collect().last().replaceWith(items.size());
    }
}
