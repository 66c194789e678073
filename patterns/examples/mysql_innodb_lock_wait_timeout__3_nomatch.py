"""A Go notification worker long-polls the Telegram Bot API with timeout=50: 50 s gaps, no lock wait.

Mechanism. getUpdates?timeout=50 is a long poll: when no update is pending, the Bot API server
holds the request open for 50 s and then answers with an empty result. The worker logs
"long poll" before the call and "long poll returned" after it, so every idle poll shows a gap
of 50 s plus one round trip to the API, the same length as an InnoDB lock wait timeout, but no
lock is involved: the worker's own MySQL statements (INSERT of delivered notifications) run in
1-3 ms and nothing reports ER_LOCK_WAIT_TIMEOUT.

Intervals.
* Idle poll: 50 s held by the server + 40-120 ms (TLS connection reused; RTT and queueing at the
  API front end).
* A poll that receives a message returns early, at a random moment of the 50 s.
* After a poll, the next one starts 0.3-1.5 ms later; each received message is stored with one
  INSERT (1-3 ms).
"""
EXPECT = "no-match"
DESCRIPTION = "a Go notification worker long-polling the Telegram Bot API (getUpdates timeout=50): idle polls return after 50.04-50.12 s, but its MySQL statements take 1-3 ms and no lock wait timeout is reported"
import json
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(3702)
T0 = datetime(2026, 11, 29, 2, 10, 0, 0, tzinfo=timezone.utc)
ev = []


def log(t, level, msg, **kv):
    rec = {'time': t.strftime('%Y-%m-%dT%H:%M:%S.') + f'{t.microsecond // 1000:03d}Z', 'level': level, 'msg': msg}
    rec.update(kv)
    ev.append((t, json.dumps(rec, separators=(',', ':'))))


def ms(x):
    return timedelta(milliseconds=x)


t = T0 + ms(412.0)
offset = 861734201
end = T0 + timedelta(minutes=13)
while t < end:
    trace = '%032x' % rnd.getrandbits(128)
    log(t, 'DEBUG', 'long poll', trace_id=trace, method='getUpdates', timeout=50, offset=offset)
    if rnd.random() < 0.3:
        t += ms(rnd.uniform(300, 49000))
        n = rnd.randint(1, 3)
        log(t, 'DEBUG', 'long poll returned', trace_id=trace, updates=n)
        for _ in range(n):
            t += ms(rnd.uniform(0.3, 1.0))
            chat = rnd.randint(10**8, 10**9)
            log(t, 'INFO', 'update received', trace_id=trace, update_id=offset, chat_id=chat, kind='message')
            t += ms(rnd.uniform(1.0, 3.0))
            log(t, 'DEBUG', 'notification stored', trace_id=trace, sql='INSERT INTO notifications (chat_id, update_id, body) VALUES (?, ?, ?)', rows_affected=1)
            offset += 1
    else:
        t += ms(50000 + rnd.uniform(40, 120))
        log(t, 'DEBUG', 'long poll returned', trace_id=trace, updates=0)
    t += ms(rnd.uniform(0.3, 1.5))

# outgoing notifications requested by the shop backend
t = T0 + ms(rnd.uniform(500, 3000))
while t < end:
    rid = '%032x' % rnd.getrandbits(128)
    log(t, 'INFO', 'request started', request_id=rid, method='POST', path='/v1/notify')
    t2 = t + ms(rnd.uniform(0.5, 1.5))
    log(t2, 'DEBUG', 'outbox insert', request_id=rid, sql='INSERT INTO outbox (chat_id, body) VALUES (?, ?)')
    t2 += ms(rnd.uniform(1.0, 3.0))
    log(t2, 'DEBUG', 'sendMessage', request_id=rid, chat_id=rnd.randint(10**8, 10**9))
    t2 += ms(rnd.uniform(35, 90))
    log(t2, 'INFO', 'request finished', request_id=rid, status=202, duration_ms=round((t2 - t).total_seconds() * 1000, 1))
    t += ms(rnd.expovariate(1 / 16000.0))

ev.sort(key=lambda e: e[0])
for _, line in ev:
    print(line)
