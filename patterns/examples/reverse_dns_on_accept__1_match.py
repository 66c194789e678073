#!/usr/bin/env python3
"""Bastion host, rsyslog with high-precision timestamps, sshd with UseDNS yes and LogLevel VERBOSE.
Clients from the branch office (198.51.100.0/24) have no reachable PTR zone: sshd's reverse
lookup of the client address waits the resolver's 5 s timeout (glibc RES_TIMEOUT) before the
second try answers NXDOMAIN, so every login takes 5 s plus the key exchange; one client whose
PTR exists but whose name does not resolve gets the 'reverse mapping checking' message, one
lookup times out twice (10 s). Clients on the management LAN have PTR records and log in at once."""
import random
from datetime import datetime, timedelta, timezone

random.seed(1200)
t0 = datetime(2026, 11, 29, 9, 0, 0, tzinfo=timezone.utc)
ev = []


def add(t, pid, msg):
    ev.append((t, f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}+00:00 bastion1 sshd[{pid}]: {msg}'))


users = ['deploy', 'ops', 'backup', 'jdoe', 'akim']
keys = ['ED25519 SHA256:Kq3mXbW0t9cZ0vTqkq0bq8nq3WmV0l7m1f0wz5m0Jx8', 'RSA SHA256:9pQe1nL2vT0yJfX5c8R3m7ZkD4sW6uHbA2gE1oN0iYc',
        'ED25519 SHA256:Zt7cF0qLxV3mN8bS2dW9hJ4kR6pA1yE5gU0oT3iM7sQ']
uids = {'deploy': 1001, 'ops': 1002, 'backup': 1003, 'jdoe': 1010, 'akim': 1011}
t = t0
pid = 48211
for i in range(13):
    pid += random.randint(3, 40)
    port = random.randint(40000, 64000)
    user = random.choice(users)
    lan = i in (2, 6, 11)
    ip = f'10.0.5.{random.randint(20, 60)}' if lan else f'198.51.100.{random.randint(10, 240)}'
    add(t, pid, f'Connection from {ip} port {port} on 10.0.0.4 port 22 rdomain ""')
    kex = timedelta(microseconds=random.randint(9000, 21000))
    if lan:
        c = t + kex + timedelta(microseconds=random.randint(400, 1800))
    elif i == 8:
        # PTR answered, but the forward lookup of the name it gave timed out once, then failed
        c = t + kex + timedelta(microseconds=5_000_000 + random.randint(300, 1500))
        add(c, pid, f'reverse mapping checking getaddrinfo for dsl-{ip.replace(".", "-")}.isp.example [{ip}] failed.')
        c += timedelta(microseconds=random.randint(300, 900))
    elif i == 4:
        c = t + kex + timedelta(microseconds=10_000_000 + random.randint(600, 2500))
    else:
        c = t + kex + timedelta(microseconds=5_000_000 + random.randint(300, 1500))
    add(c, pid, f'Accepted publickey for {user} from {ip} port {port} ssh2: {random.choice(keys)}')
    c += timedelta(microseconds=random.randint(1500, 4500))
    add(c, pid, f'pam_unix(sshd:session): session opened for user {user}(uid={uids[user]}) by {user}(uid=0)')
    if i % 3 != 1:
        e = c + timedelta(seconds=random.uniform(4, 90))
        add(e, pid, f'Received disconnect from {ip} port {port}:11: disconnected by user')
        e += timedelta(microseconds=random.randint(200, 700))
        add(e, pid, f'Disconnected from user {user} {ip} port {port}')
        e += timedelta(microseconds=random.randint(900, 2600))
        add(e, pid, f'pam_unix(sshd:session): session closed for user {user}')
    t += timedelta(seconds=random.uniform(2, 14))

ev.sort(key=lambda x: x[0])
print('\n'.join(l for _, l in ev))
