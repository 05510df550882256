package ht.platform.support.trace;

import io.quarkus.logging.LoggingFilter;
import org.jboss.logmanager.ExtLogRecord;

import java.util.logging.Filter;
import java.util.logging.LogRecord;

/**
 * A log line written inside a traced span carries {@code trace_id} and {@code span_id} (OpenTelemetry's names for
 * them in logs) instead of Quarkus's {@code traceId}, {@code spanId}, {@code parentId} and {@code sampled}.
 */
@LoggingFilter(name = "trace-fields")
public final class TraceLogFields implements Filter {

    @Override
    public boolean isLoggable(LogRecord record) {
        if (record instanceof ExtLogRecord r) {
            String trace = r.getMdc("traceId");
            if (trace != null && !trace.isEmpty()) {
                r.putMdc("trace_id", trace);
                r.putMdc("span_id", r.getMdc("spanId"));
            }
            for (String quarkusName : new String[] {"traceId", "spanId", "parentId", "sampled"}) {
                r.removeMdc(quarkusName);
            }
        }
        return true;
    }
}
