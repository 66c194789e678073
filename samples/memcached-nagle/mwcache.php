<?php
/**
 * mwcache.php: a MediaWiki-like object-cache workload that writes gapscan sample logs.
 *
 * Simulates web requests served by W PHP worker processes. Every request talks to a real
 * memcached through the php-memcached extension, with the client configured the way
 * MediaWiki's MemcachedPeclBagOStuff configures it:
 *   - one persistent Memcached handle per worker (pool id = md5 of the cache parameters),
 *     reused by every request that worker serves;
 *   - ASCII protocol, libketama hashing, PHP serializer, compression threshold 1500 bytes;
 *   - connect timeout 0.5 s, send/receive timeouts 500 000 us, poll timeout 500 ms;
 *   - OPT_TCP_NODELAY = !allow_tcp_nagle_delay (MediaWiki's default allows Nagle: --mode=nagle;
 *     --mode=nodelay is the 'allow_tcp_nagle_delay' => false control);
 *   - OPT_NOREPLY switched on only around background writes (WRITE_BACKGROUND): set, delete,
 *     add and incrWithInit of keys that do not end in ":lock". Reads, touch, cas and the
 *     add/delete of ":lock" keys always wait for the server's reply.
 *
 * Each event is logged when it happens (cache calls: just before the call, as MediaWiki's
 * debug() does; DB queries: after the query) in the WMF Monolog line format:
 *   <Y-m-d H:i:s.u> [<reqId>] <host> <wiki> <mwversion> <channel> <LEVEL>: <message> <context>
 * with UTC microsecond timestamps and no context when it is empty. Workers append to the
 * same file with one write(2) per line, so concurrent requests interleave.
 *
 * The request plan (operations, keys, value sizes, simulated work) comes from a seeded
 * PRNG per request index, so two runs with the same --seed replay the same workload.
 * Simulated work uses log-normal durations: there is no fixed sleep anywhere.
 *
 * Usage:
 *   php mwcache.php --server=127.0.0.1:21211 --mode=nagle --log=FILE
 *       [--requests=40] [--ops=30-80] [--workers=4] [--seed=20261129]
 *       [--host=appserver1] [--wiki=mywiki] [--mw-version=1.39.10]
 *   --worker=I serves only worker I's share of the requests (no fork, no truncation of
 *   FILE); a driver without pcntl starts one such process per worker.
 */

declare(strict_types=1);

const CACHE_CLASS = 'MemcachedPeclBagOStuff';

function fail(string $message): never
{
    fwrite(STDERR, "mwcache.php: error: $message\n");
    exit(2);
}

// ---------------------------------------------------------------------------------------
// Options

/** @return array<string,mixed> validated configuration */
function parse_options(): array
{
    $opts = getopt('', [
        'server:', 'mode:', 'log:', 'requests:', 'ops:', 'workers:', 'worker:', 'seed:',
        'host:', 'wiki:', 'mw-version:', 'help',
    ]);
    if ($opts === false || isset($opts['help'])) {
        fwrite(STDERR, "usage: php mwcache.php --server=HOST:PORT --mode=nagle|nodelay --log=FILE\n"
            . "       [--requests=N] [--ops=MIN-MAX] [--workers=W] [--worker=I] [--seed=S]\n"
            . "       [--host=NAME] [--wiki=ID] [--mw-version=V]\n");
        exit(isset($opts['help']) ? 0 : 2);
    }
    foreach (['server', 'mode', 'log'] as $required) {
        if (!isset($opts[$required]) || !is_string($opts[$required])) {
            fail("--$required is required (see --help)");
        }
    }
    if (!preg_match('/^([^:]+):(\d+)$/', $opts['server'], $m)) {
        fail("--server must be HOST:PORT, got '{$opts['server']}'");
    }
    $cfg = [
        'server_host' => $m[1],
        'server_port' => (int)$m[2],
        'mode' => $opts['mode'],
        'log' => $opts['log'],
        'requests' => int_option($opts, 'requests', 40, 1),
        'workers' => int_option($opts, 'workers', 4, 1),
        'worker' => isset($opts['worker']) ? int_option($opts, 'worker', 0, 0) : null,
        'seed' => int_option($opts, 'seed', 20261129, 0),
        'host' => (string)($opts['host'] ?? 'appserver1'),
        'wiki' => (string)($opts['wiki'] ?? 'mywiki'),
        'mw_version' => (string)($opts['mw-version'] ?? '1.39.10'),
    ];
    if (!in_array($cfg['mode'], ['nagle', 'nodelay'], true)) {
        fail("--mode must be 'nagle' or 'nodelay', got '{$cfg['mode']}'");
    }
    $ops = (string)($opts['ops'] ?? '30-80');
    if (!preg_match('/^(\d+)(?:-(\d+))?$/', $ops, $m)) {
        fail("--ops must be N or MIN-MAX, got '$ops'");
    }
    $cfg['ops_min'] = (int)$m[1];
    $cfg['ops_max'] = isset($m[2]) ? (int)$m[2] : (int)$m[1];
    if ($cfg['ops_min'] < 1 || $cfg['ops_max'] < $cfg['ops_min']) {
        fail("--ops range '$ops' is empty or starts below 1");
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
    if (!is_string($raw) || !preg_match('/^\d+$/', $raw) || (int)$raw < $min) {
        fail("--$name must be an integer >= $min");
    }
    return (int)$raw;
}

/** The $wgObjectCaches entry this workload emulates. */
function cache_params(array $cfg): array
{
    return [
        'class' => CACHE_CLASS,
        'servers' => ["{$cfg['server_host']}:{$cfg['server_port']}"],
        'persistent' => true,
        'loggroup' => 'memcached',
        'timeout' => 500000,
        'connect_timeout' => 0.5,
        'compress_threshold' => 1500,
        'serializer' => 'php',
        'use_binary_protocol' => false,
        'allow_tcp_nagle_delay' => $cfg['mode'] === 'nagle',
    ];
}

// ---------------------------------------------------------------------------------------
// Seeded randomness (mt_rand is seeded once per request plan)

function uniform(): float
{
    return (mt_rand() + 0.5) / (mt_getrandmax() + 1.0);
}

function chance(float $p): bool
{
    return uniform() < $p;
}

/** Log-normal duration in ms with the given median, capped; continuous, never a constant. */
function lognormal_ms(float $median, float $sigma, float $cap): float
{
    $z = sqrt(-2.0 * log(uniform())) * cos(2.0 * M_PI * uniform());
    return min($cap, $median * exp($sigma * $z));
}

/** Picks one element of a list. */
function pick(array $items): mixed
{
    return $items[mt_rand(0, count($items) - 1)];
}

/** Picks a key from [template => weight]. */
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

    public function log(string $channel, string $level, string $message, array $context = []): void
    {
        $tv = gettimeofday();
        $line = gmdate('Y-m-d H:i:s', $tv['sec']) . sprintf('.%06d', $tv['usec'])
            . " [{$this->reqId}] {$this->host} {$this->wiki} {$this->version}"
            . " $channel $level: $message";
        if ($context !== []) {
            $line .= ' ' . json_encode($context, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
        }
        $line .= "\n";
        if (fwrite($this->fh, $line) !== strlen($line)) {
            fail('short write to the log file');
        }
    }
}

// ---------------------------------------------------------------------------------------
// The cache client, behaving like MemcachedPeclBagOStuff (logging included)

final class PeclCache
{
    private function __construct(private Memcached $client, private LineLogger $log)
    {
    }

    /** Opens the worker's persistent handle, initialising it on the worker's first request. */
    public static function open(array $params, LineLogger $log): self
    {
        $client = new Memcached(md5(serialize($params)));
        $where = CACHE_CLASS . '::initializeClient';
        if ($client->getServerList()) {
            $log->log('memcached', 'DEBUG', "$where: pre-initialized client instance.");
            return new self($client, $log);
        }
        $log->log('memcached', 'DEBUG', "$where: initializing new client instance.");
        $ok = $client->setOptions([
            Memcached::OPT_NO_BLOCK => false,
            Memcached::OPT_BUFFER_WRITES => false,
            Memcached::OPT_NOREPLY => false,
            Memcached::OPT_BINARY_PROTOCOL => $params['use_binary_protocol'],
            Memcached::OPT_CONNECT_TIMEOUT => (int)($params['connect_timeout'] * 1000),
            Memcached::OPT_SEND_TIMEOUT => $params['timeout'],
            Memcached::OPT_RECV_TIMEOUT => $params['timeout'],
            Memcached::OPT_POLL_TIMEOUT => intdiv($params['timeout'], 1000),
            Memcached::OPT_TCP_NODELAY => !$params['allow_tcp_nagle_delay'],
            Memcached::OPT_LIBKETAMA_COMPATIBLE => true,
            Memcached::OPT_SERIALIZER => Memcached::SERIALIZER_PHP,
        ]);
        if (!$ok) {
            fail('Memcached::setOptions() rejected the client options');
        }
        ini_set('memcached.compression_threshold', (string)$params['compress_threshold']);
        $servers = [];
        foreach ($params['servers'] as $server) {
            [$host, $port] = explode(':', $server, 2);
            $servers[] = [$host, (int)$port];
        }
        if (!$client->addServers($servers)) {
            fail('Memcached::addServers() failed');
        }
        return new self($client, $log);
    }

    private function debug(string $text): void
    {
        $this->log->log('memcached', 'DEBUG', CACHE_CLASS . " debug: $text", ['class' => CACHE_CLASS]);
    }

    /** Runs $write with OPT_NOREPLY on when $background is set, and always switches it off. */
    private function write(bool $background, callable $write)
    {
        if (!$background) {
            return $write();
        }
        $this->client->setOption(Memcached::OPT_NOREPLY, true);
        try {
            return $write();
        } finally {
            $this->client->setOption(Memcached::OPT_NOREPLY, false);
        }
    }

    public function get(string $key): mixed
    {
        $this->debug("get($key)");
        return $this->check($key, $this->client->get($key));
    }

    /** get() that also fetches the CAS token (Memcached::GET_EXTENDED). */
    public function getWithToken(string $key, mixed &$token): mixed
    {
        $this->debug("get($key)");
        $res = $this->client->get($key, null, Memcached::GET_EXTENDED);
        $token = is_array($res) ? $res['cas'] : null;
        return $this->check($key, is_array($res) ? $res['value'] : false);
    }

    /** @return array<string,mixed> found keys only */
    public function getMulti(array $keys): array
    {
        $this->debug('getMulti(' . implode(', ', $keys) . ')');
        $res = $this->check(false, $this->client->getMulti($keys));
        return is_array($res) ? $res : [];
    }

    public function set(string $key, mixed $value, int $ttl, bool $background): bool
    {
        $this->debug("set($key)");
        $ok = $this->write($background, fn () => $this->client->set($key, $value, $ttl));
        if (!$ok && $this->client->getResultCode() === Memcached::RES_NOTSTORED) {
            return true;
        }
        return (bool)$this->check($key, $ok);
    }

    public function delete(string $key, bool $background): bool
    {
        $this->debug("delete($key)");
        $ok = $this->write($background, fn () => $this->client->delete($key));
        if (!$ok && $this->client->getResultCode() === Memcached::RES_NOTFOUND) {
            return true;
        }
        return (bool)$this->check($key, $ok);
    }

    public function add(string $key, mixed $value, int $ttl, bool $background): bool
    {
        $this->debug("add($key)");
        return (bool)$this->check($key,
            $this->write($background, fn () => $this->client->add($key, $value, $ttl)));
    }

    /** The asynchronous counter update: add(init - step), then increment(step), both noreply. */
    public function incrWithInit(string $key, int $ttl, int $step = 1, int $init = 1): void
    {
        $this->debug("incrWithInit($key)");
        $this->write(true, function () use ($key, $ttl, $step, $init) {
            $this->check($key, $this->client->add($key, $init - $step, $ttl));
            $this->check($key, $this->client->increment($key, $step));
        });
    }

    public function cas(float|int|string $token, string $key, mixed $value, int $ttl): bool
    {
        $this->debug("cas($key)");
        return (bool)$this->check($key, $this->client->cas($token, $key, $value, $ttl));
    }

    public function touch(string $key, int $ttl): bool
    {
        $this->debug("touch($key)");
        return (bool)$this->check($key, $this->client->touch($key, $ttl));
    }

    /** Logs "result: ..." for not-found/not-stored/exists and an error line for failures. */
    private function check(string|false $key, mixed $result): mixed
    {
        if ($result !== false) {
            return $result;
        }
        $code = $this->client->getResultCode();
        switch ($code) {
            case Memcached::RES_SUCCESS:
                break;
            case Memcached::RES_DATA_EXISTS:
            case Memcached::RES_NOTSTORED:
            case Memcached::RES_NOTFOUND:
                $this->debug('result: ' . $this->client->getResultMessage());
                break;
            default:
                $message = $this->client->getResultMessage();
                if ($key === false) {
                    $this->log->log('memcached', 'ERROR', "Memcached error: $message");
                    break;
                }
                $server = $this->client->getServerByKey($key);
                $where = "{$server['host']}:{$server['port']}";
                $this->log->log('memcached', 'ERROR',
                    "Memcached error for key \"$key\" on server \"$where\": $message",
                    ['memcached-server' => $where, 'memcached-key' => $key]);
        }
        return $result;
    }
}

// ---------------------------------------------------------------------------------------
// Workload plan: drawn up front from the per-request seed, independent of cache outcomes

/** Plain BagOStuff keys read with get(); weight = how often a lookup picks it. */
const LOOKUP_KEYS = [
    '{wiki}:page-props:{p}' => 6,
    '{wiki}:page-restrictions:{p}' => 4,
    '{wiki}:revision-row-1.29:{wiki}:{p}:{r}' => 5,
    '{wiki}:pcache:idoptions:{p}' => 5,
    '{wiki}:pcache:idhash:{p}-0!canonical' => 4,
    '{wiki}:preprocess-hash:{h}:0' => 4,
    '{wiki}:user-quicktouched:id:{u}' => 1,
    'global:user:id:{wiki}:{u}' => 1,
    '{wiki}:messages:en:hash:v1' => 2,
    '{wiki}:messages:en' => 1,
    '{wiki}:resourceloader-filter:minify-js:{h}' => 3,
    '{wiki}:SiteStats:groupcounts:sysop' => 1,
    'global:rdbms-server-readonly:db1' => 2,
];

/** Keys managed through WANObjectCache (value key + check key read together). */
const WAN_KEYS = [
    '{wiki}:page-content-model:{r}',
    '{wiki}:revision-text:tt:{t}',
    'global:user-groups:{wiki}:{u}',
    '{wiki}:page-links-count:{p}',
    '{wiki}:interwiki:{h}',
];

const COUNTER_KEYS = [
    '{wiki}:limiter:purge:user:{u}',
    '{wiki}:limiter:edit:user-global:{u}',
    '{wiki}:ratelimit-renderfile:ip:{h}',
];

const PURGE_KEYS = [
    '{wiki}:page-props:{p}',
    '{wiki}:page-restrictions:{p}',
    '{wiki}:pcache:idoptions:{p}',
];

const BACKGROUND_ADD_KEYS = [
    '{wiki}:page-view-recorded:{p}:{u}',
    '{wiki}:edit-stash-hit:{h}',
];

const LOCK_KEYS = [
    '{wiki}:pcache:poolcounter-gate:{p}:lock',
    '{wiki}:user-update:{u}:lock',
];

const TOUCH_KEYS = [
    '{wiki}:pcache:idhash:{p}-0!canonical',
    'global:user:id:{wiki}:{u}',
];

/** [method, SQL template] pairs for the DBQuery channel. */
const DB_QUERIES = [
    ['MediaWiki\Page\PageStore::getPageByNameViaLinkCache',
        "SELECT page_id,page_latest,page_len,page_content_model FROM `page` WHERE page_namespace = 0 AND page_title = 'Page_{p}' LIMIT 1"],
    ['MediaWiki\Revision\RevisionStore::fetchRevisionRowFromConds',
        'SELECT rev_id,rev_page,rev_timestamp,rev_len,rev_sha1 FROM `revision` WHERE rev_id = {r} LIMIT 1'],
    ['MediaWiki\Storage\SqlBlobStore::fetchBlobs',
        'SELECT old_id,old_text,old_flags FROM `text` WHERE old_id = {t}'],
    ['PageProps::getProperties',
        'SELECT pp_page,pp_propname,pp_value FROM `page_props` WHERE pp_page = {p}'],
    ['User::loadFromDatabase',
        'SELECT user_id,user_name,user_touched,user_editcount FROM `user` WHERE user_id = {u} LIMIT 1'],
    ['MediaWiki\User\UserGroupManager::getUserGroupMemberships',
        'SELECT ug_user,ug_group,ug_expiry FROM `user_groups` WHERE ug_user = {u}'],
    ['LinkBatch::doQuery',
        "SELECT page_id,page_len,page_latest,page_namespace,page_title FROM `page` WHERE (page_namespace = 0 AND page_title IN ('Page_{p}','Main_Page'))"],
];

const TTLS = [60, 300, 3600, 86400];

/** Step kind => weight. */
const STEP_KINDS = [
    'lookup' => 41, 'wan' => 18, 'multi' => 9, 'counter' => 8, 'purge' => 6, 'bgadd' => 4,
    'lock' => 5, 'merge' => 4, 'touch' => 3, 'readonly' => 2,
];

function request_seed(int $seed, int $index): int
{
    return ($seed * 1000003 + $index * 7919 + 1) & 0x7fffffff;
}

/** Fills {wiki} {p} {r} {t} {u} {h} placeholders. */
function expand(string $template, array $vars): string
{
    return strtr($template, $vars);
}

/** Placeholders for one page: its id, latest revision id and text row id. */
function page_vars(array $vars, int $page): array
{
    $vars['{p}'] = (string)$page;
    $vars['{r}'] = (string)($page * 31 + $page % 4);
    $vars['{t}'] = (string)($page * 29 + $page % 6);
    return $vars;
}

/** Page ids skewed towards small ranks, like page popularity. */
function popular_page(): int
{
    return 1000 + (int)floor(exp(uniform() * log(400.0))) * 17;
}

function plan_request(array $cfg, int $index): array
{
    mt_srand(request_seed($cfg['seed'], $index));
    // The viewed page first, then pages it links to (their keys are looked up too).
    $pages = [popular_page()];
    for ($n = mt_rand(10, 40); count($pages) < $n;) {
        $pages[] = popular_page();
    }
    $page = $pages[0];
    $vars = page_vars([
        '{wiki}' => $cfg['wiki'],
        '{u}' => (string)(int)floor(exp(uniform() * log(60.0))),
    ], $page);
    $plan = [
        'req_id' => hex_string(24),
        'url' => "/wiki/Page_$page",
        'idle_before_ms' => lognormal_ms(20.0, 0.9, 400.0),
        'target_ops' => mt_rand($cfg['ops_min'], $cfg['ops_max']),
        'first_query' => plan_query($vars),
        'steps' => [],
    ];
    // Every step makes at least one cache call, so target_ops steps are always enough;
    // run_request() stops once the request has made target_ops calls.
    for ($i = 0; $i < $plan['target_ops']; $i++) {
        $plan['steps'][] = plan_step($vars, $pages);
    }
    return $plan;
}

/** A DB query: method, SQL and how long it takes. */
function plan_query(array $vars): array
{
    [$method, $sql] = pick(DB_QUERIES);
    return ['method' => $method, 'sql' => expand($sql, $vars), 'ms' => lognormal_ms(1.2, 0.7, 30.0)];
}

/** A value to store: a serializable array of log-normal size. */
function plan_value(): array
{
    $size = (int)lognormal_ms(220.0, 1.1, 20000.0) + 8;
    return ['size' => $size, 'seed' => hex_string(8), 'ttl' => pick(TTLS)];
}

function plan_step(array $vars, array $pages): array
{
    $kind = pick_weighted(STEP_KINDS);
    $vars = page_vars($vars, chance(0.15) ? $pages[0] : pick($pages));
    // A fresh hash per step stands for content-derived keys (preprocessor, minifier, ...).
    $vars['{h}'] = hex_string(mt_rand(0, 2) === 0 ? 8 : 32);
    if (mt_rand(0, 7) === 0) {
        $vars['{h}'] = pick(['4f2c9a1e', 'd41d8cd98f00b204e9800998ecf8427e', '9e107d9d372bb6826bd81d3542a419d6']);
    }
    $step = [
        'kind' => $kind,
        // Work before the step: nothing, a DB query, or quiet computation (sleep or CPU).
        'pause' => plan_pause($vars),
        // Work done when a lookup misses (regeneration), drawn even if it hits.
        'regen_query' => chance(0.25) ? plan_query($vars) : null,
        'regen_cpu_ms' => lognormal_ms(0.5, 0.8, 15.0),
        'value' => plan_value(),
    ];
    switch ($kind) {
        case 'lookup':
            $step['key'] = expand(pick_weighted(LOOKUP_KEYS), $vars);
            break;
        case 'readonly':
            $step['key'] = 'global:rdbms-server-readonly:db1';
            break;
        case 'wan':
            $base = expand(pick(WAN_KEYS), $vars);
            $step['keys'] = ["WANCache:$base|#|v", expand('WANCache:{wiki}:page:{p}|#|t', $vars)];
            break;
        case 'multi':
            $keys = [];
            $n = mt_rand(2, 5);
            while (count($keys) < $n) {
                $keys[expand(pick_weighted(LOOKUP_KEYS), $vars)] = true;
            }
            $step['keys'] = array_keys($keys);
            break;
        case 'counter':
            $step['key'] = expand(pick(COUNTER_KEYS), $vars);
            break;
        case 'purge':
            $step['key'] = expand(pick(PURGE_KEYS), $vars);
            break;
        case 'bgadd':
            $step['key'] = expand(pick(BACKGROUND_ADD_KEYS), $vars);
            break;
        case 'lock':
            $step['key'] = expand(pick(LOCK_KEYS), $vars);
            $step['hold_ms'] = lognormal_ms(1.5, 0.8, 40.0);
            break;
        case 'merge':
            $step['key'] = expand('{wiki}:user-quicktouched:id:{u}', $vars);
            break;
        case 'touch':
            $step['key'] = expand(pick(TOUCH_KEYS), $vars);
            break;
    }
    return $step;
}

function plan_pause(array $vars): ?array
{
    $r = uniform();
    if ($r < 0.06) {
        return ['type' => 'query', 'query' => plan_query($vars)];
    }
    if ($r < 0.18) {
        return ['type' => 'sleep', 'ms' => lognormal_ms(3.0, 1.0, 80.0)];
    }
    if ($r < 0.34) {
        return ['type' => 'cpu', 'ms' => lognormal_ms(0.6, 0.9, 20.0)];
    }
    return null;
}

// ---------------------------------------------------------------------------------------
// Execution

function busy_ms(float $ms): void
{
    $end = hrtime(true) + (int)($ms * 1e6);
    while (hrtime(true) < $end) {
        // simulated CPU work (parsing, rendering)
    }
}

function sleep_ms(float $ms): void
{
    usleep(max(1, (int)round($ms * 1000)));
}

function run_query(array $query, array $cfg, LineLogger $log): void
{
    $start = hrtime(true);
    sleep_ms($query['ms']);
    $runtime = round((hrtime(true) - $start) / 1e9, 3);
    $log->log('DBQuery', 'DEBUG', "{$query['method']} [{$runtime}s] db1: {$query['sql']}", [
        'method' => $query['method'],
        'sql' => $query['sql'],
        'domain' => $cfg['wiki'],
        'runtime' => $runtime,
        'db_log_category' => 'query',
        'db_server' => 'db1',
        'db_name' => $cfg['wiki'],
        'db_user' => 'wikiuser',
    ]);
}

function make_value(array $value): array
{
    $blob = substr(str_repeat(md5($value['seed']), intdiv($value['size'], 32) + 1), 0, $value['size']);
    return ['v' => 1, 'ts' => time(), 'data' => $blob];
}

/** Regenerates a missed value (DB query + CPU) and stores it in the background. */
function regenerate(array $step, string $key, PeclCache $cache, array $cfg, LineLogger $log): int
{
    if ($step['regen_query'] !== null) {
        run_query($step['regen_query'], $cfg, $log);
    }
    busy_ms($step['regen_cpu_ms']);
    $cache->set($key, make_value($step['value']), $step['value']['ttl'], true);
    return 1;
}

/** Runs one step; returns the number of cache calls it made. */
function run_step(array $step, PeclCache $cache, array $cfg, LineLogger $log, array &$fetched): int
{
    $value = fn () => make_value($step['value']);
    $ttl = $step['value']['ttl'];
    switch ($step['kind']) {
        case 'lookup':
        case 'readonly':
            $fetched[$step['key']] = ($fetched[$step['key']] ?? 0) + 1;
            if ($cache->get($step['key']) !== false) {
                return 1;
            }
            return 1 + regenerate($step, $step['key'], $cache, $cfg, $log);
        case 'wan':
            [$valueKey, $checkKey] = $step['keys'];
            $found = $cache->getMulti($step['keys']);
            $ops = 1;
            if (!array_key_exists($checkKey, $found)) {
                $cache->add($checkKey, 'PURGED:' . time(), 86400 * 7, true);
                $ops++;
            }
            if (!array_key_exists($valueKey, $found)) {
                $ops += regenerate($step, $valueKey, $cache, $cfg, $log);
            }
            return $ops;
        case 'multi':
            foreach ($step['keys'] as $key) {
                $fetched[$key] = ($fetched[$key] ?? 0) + 1;
            }
            $cache->getMulti($step['keys']);
            return 1;
        case 'counter':
            $cache->incrWithInit($step['key'], 60);
            return 1;
        case 'purge':
            $cache->delete($step['key'], true);
            return 1;
        case 'bgadd':
            $cache->add($step['key'], 1, $ttl, true);
            return 1;
        case 'lock':
            if (!$cache->add($step['key'], getmypid(), 10, false)) {
                return 1;
            }
            busy_ms($step['hold_ms']);
            $cache->delete($step['key'], false);
            return 2;
        case 'merge':
            $token = null;
            if ($cache->getWithToken($step['key'], $token) === false || $token === null) {
                return 1;
            }
            $cache->cas($token, $step['key'], $value(), $ttl);
            return 2;
        case 'touch':
            $cache->touch($step['key'], $ttl);
            return 1;
    }
    fail("unknown step kind {$step['kind']}");
}

function run_pause(?array $pause, array $cfg, LineLogger $log): void
{
    if ($pause === null) {
        return;
    }
    match ($pause['type']) {
        'query' => run_query($pause['query'], $cfg, $log),
        'sleep' => sleep_ms($pause['ms']),
        'cpu' => busy_ms($pause['ms']),
    };
}

function run_request(array $plan, array $cfg, LineLogger $log): void
{
    $log->reqId = $plan['req_id'];
    $log->log('wfDebug', 'DEBUG', "Start request GET {$plan['url']}");
    $log->log('wfDebug', 'DEBUG',
        '[caches] main: ' . CACHE_CLASS . ', message: ' . CACHE_CLASS . ', session: ' . CACHE_CLASS);
    $cache = PeclCache::open(cache_params($cfg), $log);
    run_query($plan['first_query'], $cfg, $log);
    $ops = 0;
    $fetched = [];
    foreach ($plan['steps'] as $step) {
        if ($ops >= $plan['target_ops']) {
            break;
        }
        run_pause($step['pause'], $cfg, $log);
        $ops += run_step($step, $cache, $cfg, $log, $fetched);
    }
    foreach ($fetched as $key => $count) {
        if ($count > 1) {
            $log->log('memcached', 'WARNING', "Duplicate get(): \"$key\" fetched $count times",
                ['key' => $key, 'count' => $count]);
        }
    }
    $log->log('wfDebug', 'DEBUG', 'Request ended normally');
}

/** Serves requests w, w+W, w+2W, ... with a random idle time before each. */
function run_worker(int $worker, array $cfg): int
{
    $log = new LineLogger($cfg['log'], $cfg['host'], $cfg['wiki'], $cfg['mw_version']);
    for ($i = $worker; $i < $cfg['requests']; $i += $cfg['workers']) {
        $plan = plan_request($cfg, $i);
        sleep_ms($plan['idle_before_ms']);
        run_request($plan, $cfg, $log);
    }
    return 0;
}

function check_server(array $cfg): void
{
    $probe = new Memcached();
    $probe->setOption(Memcached::OPT_CONNECT_TIMEOUT, 500);
    $probe->addServer($cfg['server_host'], $cfg['server_port']);
    $versions = $probe->getVersion();
    $probe->quit();
    $version = is_array($versions) ? (reset($versions) ?: '') : '';
    if ($version === '' || $version === '255.255.255') {
        fail("no memcached answers at {$cfg['server_host']}:{$cfg['server_port']}");
    }
}

function main(): int
{
    if (!extension_loaded('memcached')) {
        fail("the PHP 'memcached' extension is not loaded (Debian: apt-get install php-memcached)");
    }
    $cfg = parse_options();
    check_server($cfg);
    if ($cfg['worker'] !== null) {
        return run_worker($cfg['worker'], $cfg);
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
            exit(run_worker($w, $cfg));
        }
        $children[] = $pid;
    }
    $rc = 0;
    foreach ($children as $pid) {
        pcntl_waitpid($pid, $status);
        if (!pcntl_wifexited($status) || pcntl_wexitstatus($status) !== 0) {
            fwrite(STDERR, "mwcache.php: worker $pid failed\n");
            $rc = 1;
        }
    }
    return $rc;
}

exit(main());
