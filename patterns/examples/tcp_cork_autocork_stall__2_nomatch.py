#!/usr/bin/env python3
"""Near miss: the same asset server after the fix: it clears TCP_CORK after each sendfile(), so
every response leaves at once; the waits in epoll_wait are the browser's own pauses between
requests (2-90 ms, irregular)."""
import random

random.seed(501)
out = []


def sc(delta_s, text):
    out.append(f'{delta_s:13.6f} {text}')


# open-file cache: the asset files stay open (fds 11-15)
assets = [('/static/app.css', 11, 1189), ('/static/logo.svg', 12, 1022), ('/static/i18n/de.json', 13, 731),
          ('/static/app.js', 14, 1307), ('/static/icons.svg', 15, 966)]
sc(0.0, 'epoll_wait(5, [{events=EPOLLIN, data={u32=4, u64=4}}], 512, -1) = 1')
sc(0.000039, 'accept4(4, {sa_family=AF_INET, sin_port=htons(53344), sin_addr=inet_addr("10.1.7.23")}, [16], SOCK_NONBLOCK) = 9')
sc(0.000030, 'epoll_ctl(5, EPOLL_CTL_ADD, 9, {events=EPOLLIN|EPOLLRDHUP, data={u32=9, u64=9}}) = 0')
sc(0.000022, 'epoll_wait(5, [{events=EPOLLIN, data={u32=9, u64=9}}], 512, -1) = 1')
first = True
for n in range(12):
    path, fd, size = assets[n % len(assets)]
    hdr = 160 + random.randint(0, 14)
    sc(0.000330 if first else random.uniform(0.002, 0.090),
       f'read(9, "GET {path} HTTP/1.1\\r\\nHost: assets.i"..., 16384) = {random.randint(380, 460)}')
    first = False
    sc(random.randint(10, 25) / 1e6, 'setsockopt(9, SOL_TCP, TCP_CORK, [1], 4) = 0')
    sc(random.randint(12, 30) / 1e6, f'write(9, "HTTP/1.1 200 OK\\r\\nContent-Type: "..., {hdr}) = {hdr}')
    sc(random.randint(14, 35) / 1e6, f'sendfile(9, {fd}, [0] => [{size}], {size}) = {size}')
    sc(random.randint(10, 25) / 1e6, 'setsockopt(9, SOL_TCP, TCP_CORK, [0], 4) = 0')
    sc(random.randint(8, 18) / 1e6, 'epoll_wait(5, [{events=EPOLLIN, data={u32=9, u64=9}}], 512, -1) = 1')
sc(random.uniform(0.002, 0.09), 'read(9, "", 16384) = 0')
sc(0.000031, 'close(9) = 0')
print('\n'.join(out))
