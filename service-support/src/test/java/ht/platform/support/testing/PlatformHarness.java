package ht.platform.support.testing;

import ht.platform.support.time.MovableClock;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * The tests' harness, {@code @ExtendWith(PlatformHarness.class)} on a test class:
 * <ul>
 *   <li>every {@link MovableClock} field of the test instance (injected or built) is set back to the real time
 *   before and after each test, so no test leaves its moved clock to the next;</li>
 *   <li>every {@link Receiver} field left null is a fresh receiver for each test, closed after it;</li>
 *   <li>waiting is {@link Waiting}'s (Awaitility).</li>
 * </ul>
 */
public final class PlatformHarness implements BeforeEachCallback, AfterEachCallback {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(PlatformHarness.class);

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        List<Receiver> opened = new ArrayList<>();
        for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
            for (Field field : fields(instance.getClass())) {
                if (isClock(field)) {
                    Object clock = field.get(instance);
                    if (clock != null) {
                        reset(clock);
                    } else if (field.isAnnotationPresent(jakarta.inject.Inject.class)) {
                        throw new IllegalStateException("the harness sees " + field + " not injected: it could not reset it");
                    }
                } else if (field.getType() == Receiver.class && field.get(instance) == null) {
                    Receiver receiver = new Receiver();
                    opened.add(receiver);
                    field.set(instance, receiver);
                }
            }
        }
        context.getStore(NAMESPACE).put("receivers", opened);
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
            for (Field field : fields(instance.getClass())) {
                if (isClock(field) && field.get(instance) != null) {
                    reset(field.get(instance));
                }
            }
        }
        @SuppressWarnings("unchecked")
        List<Receiver> opened = context.getStore(NAMESPACE).remove("receivers", List.class);
        if (opened != null) {
            for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
                for (Field field : fields(instance.getClass())) {
                    if (field.getType() == Receiver.class && opened.contains(field.get(instance))) {
                        field.set(instance, null);
                    }
                }
            }
            opened.forEach(Receiver::close);
        }
    }

    private static List<Field> fields(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (!Modifier.isStatic(field.getModifiers()) && !Modifier.isFinal(field.getModifiers())
                        && (isClock(field) || field.getType() == Receiver.class)) {
                    field.setAccessible(true);
                    fields.add(field);
                }
            }
        }
        return fields;
    }

    /** By name: a clock of the application's class loader is reset as well as one of this class's. */
    private static boolean isClock(Field field) {
        return field.getType().getName().equals(MovableClock.class.getName());
    }

    private static void reset(Object clock) throws ReflectiveOperationException {
        clock.getClass().getMethod("reset").invoke(clock);
    }
}
