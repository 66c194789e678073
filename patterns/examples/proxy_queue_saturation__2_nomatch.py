#!/usr/bin/env python3
"""HAProxy's default httplog of a slow backend: the server takes 20-600 ms per request (Tr), but it
has slots to spare, so no request waits in the queue (Tw 0, backend_queue 0). Slow responses are
not a saturation. Made by the match example's generator, in the same run (its lines(False))."""
import importlib.util
import os

spec = importlib.util.spec_from_file_location(
    'match', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'proxy_queue_saturation__1_match.py'))
match = importlib.util.module_from_spec(spec)
spec.loader.exec_module(match)
print('\n'.join(match.both()[1]))
