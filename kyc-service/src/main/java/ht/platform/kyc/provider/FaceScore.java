package ht.platform.kyc.provider;

import java.util.function.BiPredicate;
import java.util.function.IntPredicate;

/**
 * How alike two faces are, from both descriptors, normalised against the impostor cohort (adaptive symmetric score
 * normalisation): each descriptor's distance is expressed in standard deviations from each face's mean distance to its
 * nearest cohort faces, the two faces' views averaged, and the two descriptors weighted. Below zero the faces are closer
 * than each is to the strangers that look most like it; the same person across years lies well below the closest
 * impostors (kyc-service/eval FacePairEvaluation). Fusing two descriptors trained apart keeps one descriptor's blind
 * spot from deciding alone.
 */
public record FaceScore(FaceCohort cohort, int nearest, double descriptorWeight) {

    /**
     * A cohort face this close to either face (ResNet-34 distance) is taken for the same person and left out: the
     * cohort stands for strangers, and a face normalised against its own picture would look generic.
     */
    static final double SAME_PERSON_BELOW = 0.4;

    public double of(FaceMatcher.Face a, FaceMatcher.Face b) {
        return of(a, b, person -> false);
    }

    /** The score with these cohort persons left out too (the evaluation leaves out the people of the pair). */
    public double of(FaceMatcher.Face a, FaceMatcher.Face b, IntPredicate excludedPerson) {
        double[] da = cohort.descriptorDistances(a);
        double[] db = cohort.descriptorDistances(b);
        BiPredicate<Integer, FaceCohort.Member> excluded = (i, m) -> excludedPerson.test(m.person())
                || da[i] < SAME_PERSON_BELOW || db[i] < SAME_PERSON_BELOW;
        FaceCohort.Spread sa = cohort.spread(a, da, nearest, excluded);
        FaceCohort.Spread sb = cohort.spread(b, db, nearest, excluded);
        double d = a.distance(b);
        double e = a.embeddingDistance(b);
        double descriptor = ((d - sa.descriptorMean()) / sa.descriptorSd() + (d - sb.descriptorMean()) / sb.descriptorSd()) / 2;
        double embedding = ((e - sa.embeddingMean()) / sa.embeddingSd() + (e - sb.embeddingMean()) / sb.embeddingSd()) / 2;
        return descriptorWeight * descriptor + (1 - descriptorWeight) * embedding;
    }
}
