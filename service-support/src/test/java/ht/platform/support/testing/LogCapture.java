package ht.platform.support.testing;

import org.jboss.logmanager.ExtLogRecord;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Every log record of the running service while open: the formatted message, the logger, the MDC (request id, tenant,
 * mode) and any exception, one line each, for tests that grep a run's log.
 */
public final class LogCapture extends Handler implements AutoCloseable {

    private final List<String> lines = new CopyOnWriteArrayList<>();

    private LogCapture() { }

    public static LogCapture start() {
        LogCapture capture = new LogCapture();
        Logger.getLogger("").addHandler(capture);
        return capture;
    }

    public List<String> lines() {
        return List.copyOf(lines);
    }

    @Override
    public void publish(LogRecord record) {
        StringBuilder line = new StringBuilder().append(record.getLevel()).append(' ').append(record.getLoggerName()).append(' ');
        if (record instanceof ExtLogRecord ext) {
            line.append(ext.getFormattedMessage()).append(" mdc=").append(ext.getMdcCopy());
        } else {
            line.append(record.getMessage());
        }
        for (Throwable t = record.getThrown(); t != null; t = t.getCause()) {
            line.append(" | ").append(t);
        }
        lines.add(line.toString());
    }

    @Override
    public void flush() { }

    @Override
    public void close() {
        Logger.getLogger("").removeHandler(this);
    }
}
