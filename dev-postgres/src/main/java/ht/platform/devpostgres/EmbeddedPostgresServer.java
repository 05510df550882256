package ht.platform.devpostgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * One PostgreSQL 15 server (zonky's binaries from Maven Central) kept in a directory and shared by every process that
 * asks for it: the first starts it, the later ones attach to it through the port file. Each asker names an owner
 * process; a small watchdog stops the server once every owner has exited (for the tests: the Maven build).
 *
 * <p>PostgreSQL refuses to run as root; zonky then runs initdb and pg_ctl under {@code unshare -U}, where the
 * process is the unprivileged {@code nobody} of a fresh user namespace. The data directory survives, so the next
 * start skips initdb.
 *
 * <p>Also a command for deploy/local/run.sh (see {@link #main}).
 */
public final class EmbeddedPostgresServer {

    private EmbeddedPostgresServer() { }

    /**
     * {@code start DIRECTORY OWNER_PID DATABASE}: start or attach, create the database, print the port.
     * {@code create-database HOST PORT DATABASE}: create the database on HOST:PORT (user DB_USER, password DB_PASSWORD).
     */
    public static void main(String[] args) throws Exception {
        if (args.length == 4 && args[0].equals("start")) {
            int port = ensureRunning(Path.of(args[1]), Long.parseLong(args[2]));
            createDatabase("jdbc:postgresql://127.0.0.1:" + port + "/postgres", "postgres", "", args[3]);
            System.out.println(port);
        } else if (args.length == 4 && args[0].equals("create-database")) {
            createDatabase("jdbc:postgresql://" + args[1] + ":" + args[2] + "/postgres", env("DB_USER", "postgres"), env("DB_PASSWORD", ""), args[3]);
        } else {
            System.err.println("usage: EmbeddedPostgresServer start DIRECTORY OWNER_PID DATABASE | create-database HOST PORT DATABASE");
            System.exit(2);
        }
        System.exit(0); // zonky's log pumps are non-daemon threads; the server itself lives on
    }

    private static String env(String name, String otherwise) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? otherwise : value;
    }

    /** Starts the server kept in {@code dir}, or attaches to the one running there; returns its port. */
    public static int ensureRunning(Path dir, long ownerPid) throws IOException {
        Files.createDirectories(dir);
        try (FileChannel lockFile = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = lockFile.lock()) {
            Path portFile = dir.resolve("port");
            Path owners = dir.resolve("owners");
            Files.writeString(owners, ownerPid + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            if (Files.exists(portFile)) {
                int port = Integer.parseInt(Files.readString(portFile).trim());
                if (answers(port)) {
                    return port;
                }
            }
            int port = Files.exists(portFile) ? reusablePort(Integer.parseInt(Files.readString(portFile).trim())) : freePort();
            Files.deleteIfExists(portFile);
            Files.writeString(owners, ownerPid + "\n");
            ProcessBuilder.Redirect log = ProcessBuilder.Redirect.appendTo(dir.resolve("postgres.log").toFile());
            EmbeddedPostgres.builder()
                    .setDataDirectory(dir.resolve("data"))
                    .setCleanDataDirectory(false)
                    .setRegisterShutdownHook(false)
                    .setPort(port)
                    .setLocaleConfig("locale", "C")
                    .setServerConfig("fsync", "off")
                    .setServerConfig("full_page_writes", "off")
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setOutputRedirector(log)
                    .setErrorRedirector(log)
                    .start();
            Files.writeString(portFile, Integer.toString(port));
            startWatchdog(dir);
            return port;
        }
    }

    /** Creates {@code database} on the server behind {@code adminJdbcUrl} unless it exists. */
    public static void createDatabase(String adminJdbcUrl, String user, String password, String database) {
        try (Connection c = DriverManager.getConnection(adminJdbcUrl, user, password);
             Statement s = c.createStatement()) {
            try (var rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + database.replace("'", "''") + "'")) {
                if (rs.next()) {
                    return;
                }
            }
            s.execute("CREATE DATABASE \"" + database.replace("\"", "\"\"") + "\"");
        } catch (SQLException e) {
            if (!"42P04".equals(e.getSQLState())) { // created meanwhile by another process
                throw new IllegalStateException("could not create database " + database + " via " + adminJdbcUrl + ": " + e.getMessage(), e);
            }
        }
    }

    public static boolean answers(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Stops the server (SIGINT, PostgreSQL's fast shutdown) once no owner listed in {@code owners} is alive. The port
     * file goes first, so a process that asks meanwhile starts a fresh server instead of attaching to a dying one.
     *
     * <p>The watchdog must outlive the signal that stops its owner (issue 22): Ctrl-C sends SIGINT to the terminal's
     * whole foreground process group and a closed terminal SIGHUP, which used to kill the watchdog with its owner and
     * leave the server (in a session of its own) running for good. So it runs in a session of its own
     * ({@code setsid}) and ignores INT, HUP and QUIT besides.
     */
    private static void startWatchdog(Path dir) throws IOException {
        String script = """
                trap '' INT HUP QUIT
                d="$1"; pid=$(head -n1 "$d/data/postmaster.pid")
                while kill -0 "$pid" 2>/dev/null; do
                  alive=; for o in $(cat "$d/owners"); do kill -0 "$o" 2>/dev/null && { alive=1; break; }; done
                  [ -n "$alive" ] || { rm -f "$d/port"; kill -INT "$pid"; exit 0; }
                  sleep 2
                done
                """;
        List<String> command = new java.util.ArrayList<>(List.of("sh", "-c", script, "watchdog", dir.toAbsolutePath().toString()));
        if (Files.isExecutable(Path.of("/usr/bin/setsid")) || Files.isExecutable(Path.of("/bin/setsid"))) {
            command.add(0, "setsid");
        }
        new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
    }

    private static int reusablePort(int previous) {
        try (ServerSocket socket = new ServerSocket(previous, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return previous;
        } catch (IOException e) {
            return freePort();
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
