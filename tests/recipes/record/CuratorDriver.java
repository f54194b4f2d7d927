import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreMutex;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * Drives Curator 5.4.0 lock recipes for the recorder, one command per stdin line:
 *   start LABEL PORT           new CuratorFramework on 127.0.0.1:PORT, blockUntilConnected
 *   acquire LABEL [MILLIS]     InterProcessMutex / SemaphoreMutex acquire (timed if MILLIS given)
 *   release LABEL
 *   read_acquire LABEL | read_release LABEL | write_acquire LABEL | write_release LABEL   (rwlock)
 *   lease_acquire LABEL | lease_return LABEL                                           (semaphore)
 *   close LABEL
 *   quit
 * Recipe and path come from the command line: mutex|rwlock|semaphore|semaphore_mutex PATH [MAX_LEASES
 * [ENSEMBLE_TRACKER]] (ENSEMBLE_TRACKER: true for Curator's default ensembleTracker(true); false if
 * absent, so the /zookeeper/config reads are not in the trace).
 * Every client runs its commands on its own single thread (Curator's lock ownership is per thread),
 * so a command queued behind a blocking acquire runs when that acquire returns.
 * Prints "EV LABEL what ..." lines on stdout.
 */
public class CuratorDriver {
    static final int SESSION_TIMEOUT_MS = 6000;
    static final int CONNECTION_TIMEOUT_MS = 15000;

    static String recipe, path;
    static int maxLeases = 1;
    static boolean ensembleTracker = false;

    static class Client {
        final String label;
        final ExecutorService thread = Executors.newSingleThreadExecutor();
        CuratorFramework cf;
        InterProcessMutex mutex;
        InterProcessReadWriteLock rw;
        InterProcessSemaphoreV2 sem;
        InterProcessSemaphoreMutex semMutex;
        final Deque<Lease> leases = new ArrayDeque<>();

        Client(String label) { this.label = label; }
    }

    static final Map<String, Client> clients = new HashMap<>();

    static synchronized void ev(String label, String what) {
        System.out.println("EV " + label + " " + what);
        System.out.flush();
    }

    public static void main(String[] args) throws Exception {
        recipe = args[0];
        path = args[1];
        if (args.length > 2) maxLeases = Integer.parseInt(args[2]);
        if (args.length > 3) ensembleTracker = Boolean.parseBoolean(args[3]);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split("\\s+");
            if (w.length == 0 || w[0].isEmpty()) continue;
            if (w[0].equals("quit")) break;
            String cmd = w[0], label = w[1];
            Client c = clients.computeIfAbsent(label, Client::new);
            c.thread.submit(() -> run(c, cmd, w));
        }
        // Exit without interrupting the clients' threads: an acquire still blocked at the end
        // (a deadlock being recorded) must not send what an interrupted acquire sends.
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }

    static void run(Client c, String cmd, String[] w) {
        try {
            switch (cmd) {
                case "start": {
                    c.cf = CuratorFrameworkFactory.builder()
                        .connectString("127.0.0.1:" + w[2])
                        .sessionTimeoutMs(SESSION_TIMEOUT_MS)
                        .connectionTimeoutMs(CONNECTION_TIMEOUT_MS)
                        .retryPolicy(new ExponentialBackoffRetry(1000, 3))
                        .ensembleTracker(ensembleTracker)
                        .build();
                    c.cf.getConnectionStateListenable().addListener((cl, st) -> ev(c.label, "state " + st));
                    c.cf.start();
                    boolean ok = c.cf.blockUntilConnected(20, TimeUnit.SECONDS);
                    switch (recipe) {
                        case "mutex": c.mutex = new InterProcessMutex(c.cf, path); break;
                        case "rwlock": c.rw = new InterProcessReadWriteLock(c.cf, path); break;
                        case "semaphore": c.sem = new InterProcessSemaphoreV2(c.cf, path, maxLeases); break;
                        case "semaphore_mutex": c.semMutex = new InterProcessSemaphoreMutex(c.cf, path); break;
                        default: throw new IllegalArgumentException(recipe);
                    }
                    ev(c.label, ok ? "started" : "start-timeout");
                    break;
                }
                case "acquire": {
                    boolean got;
                    if (w.length > 2) {
                        long ms = Long.parseLong(w[2]);
                        got = c.semMutex != null ? c.semMutex.acquire(ms, TimeUnit.MILLISECONDS)
                                                 : c.mutex.acquire(ms, TimeUnit.MILLISECONDS);
                    } else {
                        if (c.semMutex != null) c.semMutex.acquire(); else c.mutex.acquire();
                        got = true;
                    }
                    ev(c.label, got ? "acquired" : "not-acquired");
                    break;
                }
                case "release":
                    if (c.semMutex != null) c.semMutex.release(); else c.mutex.release();
                    ev(c.label, "released");
                    break;
                case "read_acquire": c.rw.readLock().acquire(); ev(c.label, "acquired read"); break;
                case "read_release": c.rw.readLock().release(); ev(c.label, "released read"); break;
                case "write_acquire": c.rw.writeLock().acquire(); ev(c.label, "acquired write"); break;
                case "write_release": c.rw.writeLock().release(); ev(c.label, "released write"); break;
                case "lease_acquire": c.leases.push(c.sem.acquire()); ev(c.label, "acquired lease"); break;
                case "lease_return": c.sem.returnLease(c.leases.pop()); ev(c.label, "returned lease"); break;
                case "close":
                    c.cf.close();
                    ev(c.label, "closed");
                    break;
                default:
                    ev(c.label, "unknown-command " + cmd);
            }
        } catch (Throwable t) {
            ev(c.label, "error " + cmd + " " + t.getClass().getName() + ": " + String.valueOf(t.getMessage()).replace('\n', ' '));
        }
    }
}
