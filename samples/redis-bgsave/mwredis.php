<?php
/**
 * mwredis.php: a MediaWiki-like Redis cache workload that writes a gapscan sample log.
 *
 * Simulates web requests served by W PHP worker processes against a real Redis, through the
 * phpredis extension. Each worker opens one connection (connect timeout 1 s, read timeout
 * 2 s), as RedisBagOStuff's connection pool gives one connection per server and process, and
 * serves requests one after another until --seconds have elapsed. A request makes 20-60 cache
 * calls:
 *   - GET of a random existing key "key:<n>", n < --keys (the keys DEBUG POPULATE loaded);
 *   - now and then SETEX of a new key "mywiki:page:<n>" with a 100-byte value;
 *   - occasionally MGET of 5 such existing keys.
 * Each call is logged just before it is made (channel "redis", level DEBUG), so a call that
 * the server holds back shows as a gap after its own line. Between calls the worker does
 * simulated work: a log-normal pause of about 1-3 ms (usleep), never a fixed sleep.
 *
 * Lines use the WMF Monolog layout:
 *   <Y-m-d H:i:s.u> [<reqId>] <host> <wiki> <mwversion> <channel> <LEVEL>: <message>
 * with UTC microsecond timestamps. Workers append to the same file with one write(2) per
 * line (O_APPEND), so concurrent requests interleave.
 *
 * The request plan (reqId, calls, keys, values, pauses) comes from a seeded PRNG per
 * (worker, request index), so two runs with the same --seed replay the same requests; how
 * many requests fit into --seconds depends on the timing.
 *
 * Usage:
 *   php mwredis.php --server=127.0.0.1:26379 --log=FILE --keys=N
 *       [--seconds=40] [--workers=4] [--seed=20261130]
 *       [--host=appserver1] [--wiki=mywiki] [--mw-version=1.39.10]
 *   --worker=I runs only worker I (no fork, no truncation of FILE); a driver without pcntl
 *   starts one such process per worker.
 */

declare(strict_types=1);

const CACHE_CLASS = 'RedisBagOStuff';
const CONNECT_TIMEOUT_S = 1.0;
const READ_TIMEOUT_S = 2.0;
const VALUE_BYTES = 100;
const MGET_KEYS = 5;

function fail(string $message): never
{
    fwrite(STDERR, "mwredis.php: error: $message\n");
    exit(2);
}

// ---------------------------------------------------------------------------------------
// Options

/** @return array<string,mixed> validated configuration */
function parse_options(): array
{
    $opts = getopt('', [
        'server:', 'log:', 'keys:', 'seconds:', 'workers:', 'worker:', 'seed:',
        'host:', 'wiki:', 'mw-version:', 'help',
    ], $rest);
    $usage = "usage: php mwredis.php --server=HOST:PORT --log=FILE --keys=N\n"
        . "       [--seconds=S] [--workers=W] [--worker=I] [--seed=S]\n"
        . "       [--host=NAME] [--wiki=ID] [--mw-version=V]\n";
    if ($opts === false || isset($opts['help'])) {
        fwrite(STDERR, $usage);
        exit(isset($opts['help']) ? 0 : 2);
    }
    global $argv;
    if ($rest < count($argv)) {
        fail("unexpected argument '{$argv[$rest]}' (options take the form --name=value; see --help)");
    }
    foreach (['server', 'log', 'keys'] as $required) {
        if (!isset($opts[$required])) {
            fail("--$required is required (see --help)");
        }
    }
    foreach ($opts as $name => $value) {
        if (!is_string($value)) {
            fail("--$name is given more than once or without a value");
        }
    }
    if (!preg_match('/^([^:]+):(\d+)$/', $opts['server'], $m) || (int)$m[2] < 1 || (int)$m[2] > 65535) {
        fail("--server must be HOST:PORT, got '{$opts['server']}'");
    }
    if ($opts['log'] === '') {
        fail('--log must name a file');
    }
    $cfg = [
        'server_host' => $m[1],
        'server_port' => (int)$m[2],
        'log' => $opts['log'],
        'keys' => int_option($opts, 'keys', 0, MGET_KEYS),
        'seconds' => int_option($opts, 'seconds', 40, 1),
        'workers' => int_option($opts, 'workers', 4, 1),
        'worker' => isset($opts['worker']) ? int_option($opts, 'worker', 0, 0) : null,
        'seed' => int_option($opts, 'seed', 20261130, 0),
        'host' => (string)($opts['host'] ?? 'appserver1'),
        'wiki' => (string)($opts['wiki'] ?? 'mywiki'),
        'mw_version' => (string)($opts['mw-version'] ?? '1.39.10'),
    ];
    foreach (['host', 'wiki', 'mw_version'] as $name) {
        if (!preg_match('/^[A-Za-z0-9._-]+$/', $cfg[$name])) {
            fail('--' . str_replace('_', '-', $name) . " must be a single word, got '{$cfg[$name]}'");
        }
    }
    if ($cfg['worker'] !== null && $cfg['worker'] >= $cfg['workers']) {
        fail("--worker must be below --workers ({$cfg['workers']})");
    }
    return $cfg;
}

function int_option(array $opts, string $name, int $default, int $min): int
{
    if (!isset($opts[$name])) {
        return $default;
    }
    $raw = $opts[$name];
    if (!preg_match('/^\d{1,12}$/', $raw) || (int)$raw < $min) {
        fail("--$name must be an integer >= $min, got '$raw'");
    }
    return (int)$raw;
}

// ---------------------------------------------------------------------------------------
// Seeded randomness (mt_rand is seeded once per request plan)

function uniform(): float
{
    return (mt_rand() + 0.5) / (mt_getrandmax() + 1.0);
}

/** Log-normal duration in ms with the given median, capped; continuous, never a constant. */
function lognormal_ms(float $median, float $sigma, float $cap): float
{
    $z = sqrt(-2.0 * log(uniform())) * cos(2.0 * M_PI * uniform());
    return min($cap, $median * exp($sigma * $z));
}

/** Picks a key from [item => weight]. */
function pick_weighted(array $weights): string
{
    $r = uniform() * array_sum($weights);
    foreach ($weights as $item => $weight) {
        $r -= $weight;
        if ($r <= 0) {
            return (string)$item;
        }
    }
    return (string)array_key_last($weights);
}

function hex_string(int $length): string
{
    $s = '';
    while (strlen($s) < $length) {
        $s .= sprintf('%04x', mt_rand(0, 0xffff));
    }
    return substr($s, 0, $length);
}

/** A uniform integer in [0, $n), also for $n above mt_getrandmax(). */
function below(int $n): int
{
    return (int)floor(uniform() * $n) % $n;
}

// ---------------------------------------------------------------------------------------
// Logging: WMF Monolog line format, one write(2) per line

final class LineLogger
{
    /** @var resource */
    private $fh;
    public string $reqId = '';

    public function __construct(string $path, private string $host, private string $wiki,
        private string $version)
    {
        $fh = fopen($path, 'ab');
        if ($fh === false) {
            fail("cannot open log file '$path' for appending");
        }
        stream_set_write_buffer($fh, 0);
        $this->fh = $fh;
    }

    public function log(string $channel, string $level, string $message): void
    {
        $tv = gettimeofday();
        $line = gmdate('Y-m-d H:i:s', $tv['sec']) . sprintf('.%06d', $tv['usec'])
            . " [{$this->reqId}] {$this->host} {$this->wiki} {$this->version}"
            . " $channel $level: $message\n";
        if (fwrite($this->fh, $line) !== strlen($line)) {
            fail('short write to the log file');
        }
    }
}

// ---------------------------------------------------------------------------------------
// The cache client: one phpredis connection per worker, each call logged before it is made

final class RedisCache
{
    private ?Redis $conn = null;
    public int $errors = 0;

    public function __construct(private string $host, private int $port, private LineLogger $log)
    {
    }

    private function server(): string
    {
        return "{$this->host}:{$this->port}";
    }

    /** Connects (or reconnects after an error); a failed connection ends the worker. */
    private function connection(): Redis
    {
        if ($this->conn !== null) {
            return $this->conn;
        }
        $conn = new Redis();
        try {
            if (!$conn->connect($this->host, $this->port, CONNECT_TIMEOUT_S)) {
                throw new RedisException('connect() returned false');
            }
            $conn->setOption(Redis::OPT_READ_TIMEOUT, READ_TIMEOUT_S);
        } catch (RedisException $e) {
            $this->log->log('redis', 'ERROR',
                "Could not connect to server \"{$this->server()}\": {$e->getMessage()}");
            fail("cannot connect to Redis at {$this->server()}: {$e->getMessage()}");
        }
        return $this->conn = $conn;
    }

    /** Runs one command; on an exception logs it like RedisBagOStuff and drops the connection. */
    private function call(string $what, callable $command): mixed
    {
        $this->log->log('redis', 'DEBUG', CACHE_CLASS . "::$what");
        $conn = $this->connection();
        try {
            return $command($conn);
        } catch (RedisException $e) {
            $this->errors++;
            $this->log->log('redis', 'ERROR',
                "Redis exception on server \"{$this->server()}\": {$e->getMessage()}");
            try {
                $conn->close();
            } catch (RedisException) {
            }
            $this->conn = null;
            return false;
        }
    }

    public function get(string $key): mixed
    {
        return $this->call("get $key", fn (Redis $c) => $c->get($key));
    }

    public function getMulti(array $keys): mixed
    {
        return $this->call('getMulti ' . implode(' ', $keys), fn (Redis $c) => $c->mGet($keys));
    }

    public function set(string $key, string $value, int $ttl): mixed
    {
        return $this->call("set $key", fn (Redis $c) => $c->setex($key, $ttl, $value));
    }

    public function ping(): void
    {
        $conn = $this->connection();
        try {
            $conn->ping();
        } catch (RedisException $e) {
            fail("Redis at {$this->server()} does not answer PING: {$e->getMessage()}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Workload plan: drawn up front from the per-request seed, independent of cache outcomes

/** Call kind => weight. */
const CALL_KINDS = ['get' => 80, 'set' => 14, 'mget' => 6];

const TTLS = [300, 3600, 86400];

function request_seed(int $seed, int $worker, int $index): int
{
    return ($seed * 1000003 + $worker * 104729 + $index * 7919 + 1) & 0x7fffffff;
}

function plan_request(array $cfg, int $worker, int $index): array
{
    mt_srand(request_seed($cfg['seed'], $worker, $index));
    $plan = [
        'req_id' => hex_string(16),
        'url' => '/wiki/Page_' . (1000 + below(50000)),
        'idle_before_ms' => lognormal_ms(4.0, 0.8, 60.0),
        'calls' => [],
    ];
    for ($i = 0, $n = mt_rand(20, 60); $i < $n; $i++) {
        $call = [
            'kind' => pick_weighted(CALL_KINDS),
            // Simulated work before the call: about 1-3 ms, log-normal.
            'pause_ms' => lognormal_ms(1.7, 0.3, 12.0),
        ];
        switch ($call['kind']) {
            case 'get':
                $call['key'] = 'key:' . below($cfg['keys']);
                break;
            case 'mget':
                $keys = [];
                while (count($keys) < MGET_KEYS) {
                    $keys['key:' . below($cfg['keys'])] = true;
                }
                $call['keys'] = array_keys($keys);
                break;
            case 'set':
                $call['key'] = "{$cfg['wiki']}:page:" . below(1000000000);
                $call['value'] = hex_string(VALUE_BYTES);
                $call['ttl'] = TTLS[mt_rand(0, count(TTLS) - 1)];
                break;
        }
        $plan['calls'][] = $call;
    }
    return $plan;
}

// ---------------------------------------------------------------------------------------
// Execution

function sleep_ms(float $ms): void
{
    usleep(max(1, (int)round($ms * 1000)));
}

function run_request(array $plan, RedisCache $cache, array $cfg, LineLogger $log): void
{
    $log->reqId = $plan['req_id'];
    $start = hrtime(true);
    $log->log('wfDebug', 'DEBUG', "Start request GET {$plan['url']}");
    foreach ($plan['calls'] as $call) {
        sleep_ms($call['pause_ms']);
        match ($call['kind']) {
            'get' => $cache->get($call['key']),
            'mget' => $cache->getMulti($call['keys']),
            'set' => $cache->set($call['key'], $call['value'], $call['ttl']),
        };
    }
    $ms = (hrtime(true) - $start) / 1e6;
    $log->log('wfDebug', 'DEBUG', sprintf('Request ended after %.1f ms', $ms));
}

/** Serves requests until the deadline (an hrtime() value, ns); a request is never cut short. */
function run_worker(int $worker, array $cfg, int $deadline): int
{
    $log = new LineLogger($cfg['log'], $cfg['host'], $cfg['wiki'], $cfg['mw_version']);
    $cache = new RedisCache($cfg['server_host'], $cfg['server_port'], $log);
    $cache->ping();
    $requests = 0;
    for ($i = 0; hrtime(true) < $deadline; $i++) {
        $plan = plan_request($cfg, $worker, $i);
        sleep_ms($plan['idle_before_ms']);
        if (hrtime(true) >= $deadline) {
            break;
        }
        run_request($plan, $cache, $cfg, $log);
        $requests++;
    }
    if ($cache->errors > 0) {
        fwrite(STDERR, "mwredis.php: worker $worker: {$cache->errors} Redis errors in $requests requests\n");
    }
    return 0;
}

function check_server(array $cfg): void
{
    $probe = new Redis();
    try {
        if (!$probe->connect($cfg['server_host'], $cfg['server_port'], CONNECT_TIMEOUT_S)) {
            throw new RedisException('connect() returned false');
        }
        $probe->ping();
        $probe->close();
    } catch (RedisException $e) {
        fail("no Redis answers at {$cfg['server_host']}:{$cfg['server_port']}: {$e->getMessage()}");
    }
}

function main(): int
{
    if (!extension_loaded('redis')) {
        fail("the PHP 'redis' extension is not loaded (Debian: apt-get install php-redis)");
    }
    $cfg = parse_options();
    check_server($cfg);
    $deadline = hrtime(true) + $cfg['seconds'] * 1_000_000_000;
    if ($cfg['worker'] !== null) {
        return run_worker($cfg['worker'], $cfg, $deadline);
    }
    if (!function_exists('pcntl_fork')) {
        fail('pcntl_fork() is unavailable; start one process per worker with --worker=I');
    }
    if (file_put_contents($cfg['log'], '') === false) {
        fail("cannot create log file '{$cfg['log']}'");
    }
    $children = [];
    for ($w = 0; $w < $cfg['workers']; $w++) {
        $pid = pcntl_fork();
        if ($pid === -1) {
            fail('pcntl_fork() failed');
        }
        if ($pid === 0) {
            exit(run_worker($w, $cfg, $deadline));
        }
        $children[] = $pid;
    }
    // Stopping the parent (SIGTERM/SIGINT) stops its workers too.
    if (function_exists('posix_kill')) {
        pcntl_async_signals(true);
        $forward = function (int $signo) use (&$children): void {
            foreach ($children as $pid) {
                posix_kill($pid, SIGTERM);
            }
            foreach ($children as $pid) {
                pcntl_waitpid($pid, $status);
            }
            exit(128 + $signo);
        };
        // restart_syscalls false: the signal interrupts pcntl_waitpid(), so the handler runs.
        pcntl_signal(SIGTERM, $forward, false);
        pcntl_signal(SIGINT, $forward, false);
    }
    $rc = 0;
    foreach ($children as $i => $pid) {
        while (pcntl_waitpid($pid, $status) === -1 && pcntl_get_last_error() === PCNTL_EINTR) {
        }
        unset($children[$i]);
        if (!pcntl_wifexited($status) || pcntl_wexitstatus($status) !== 0) {
            fwrite(STDERR, "mwredis.php: worker $pid failed\n");
            $rc = 1;
        }
    }
    return $rc;
}

exit(main());
