#!/usr/bin/env python3
"""strace -r of a single-threaded asset server (epoll loop) that sets TCP_CORK on each accepted
connection and never clears it. Every response (headers + sendfile body from its open-file cache, together below one MSS)
stays corked with nothing in flight, so the kernel sends it only when the probe timer fires at
max(RTO, 200 ms): 204-208 ms at CONFIG_HZ=250 on a LAN. The keep-alive client sends its next
request right after the response arrives, so each epoll_wait after a response lasts ~205 ms."""
import random

random.seed(500)
out = []


def sc(delta_s, text):
    out.append(f'{delta_s:13.6f} {text}')


# open-file cache: the asset files stay open (fds 11-15)
assets = [('/static/app.css', 11, 1189), ('/static/logo.svg', 12, 1022), ('/static/i18n/de.json', 13, 731),
          ('/static/app.js', 14, 1307), ('/static/icons.svg', 15, 966)]
sc(0.0, 'epoll_wait(5, [{events=EPOLLIN, data={u32=4, u64=4}}], 512, -1) = 1')
sc(0.000041, 'accept4(4, {sa_family=AF_INET, sin_port=htons(53318), sin_addr=inet_addr("10.1.7.23")}, [16], SOCK_NONBLOCK) = 9')
sc(0.000032, 'setsockopt(9, SOL_TCP, TCP_CORK, [1], 4) = 0')
sc(0.000019, 'epoll_ctl(5, EPOLL_CTL_ADD, 9, {events=EPOLLIN|EPOLLRDHUP, data={u32=9, u64=9}}) = 0')
sc(0.000021, 'epoll_wait(5, [{events=EPOLLIN, data={u32=9, u64=9}}], 512, -1) = 1')
first = True
for n in range(13):
    path, fd, size = assets[n % len(assets)]
    hdr = 160 + random.randint(0, 14)
    sc(0.000350 if first else (0.204 + random.randint(400, 4300) / 1e6),
       f'read(9, "GET {path} HTTP/1.1\\r\\nHost: assets.i"..., 16384) = {random.randint(380, 460)}')
    first = False
    sc(random.randint(12, 30) / 1e6, f'write(9, "HTTP/1.1 200 OK\\r\\nContent-Type: "..., {hdr}) = {hdr}')
    sc(random.randint(14, 35) / 1e6, f'sendfile(9, {fd}, [0] => [{size}], {size}) = {size}')
    sc(random.randint(8, 18) / 1e6, 'epoll_wait(5, [{events=EPOLLIN, data={u32=9, u64=9}}], 512, -1) = 1')
sc(0.204 + random.randint(400, 4300) / 1e6, 'read(9, "", 16384) = 0')
sc(0.000031, 'close(9) = 0')
print('\n'.join(out))
