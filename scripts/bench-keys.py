#!/usr/bin/env python3
# Keystroke echo measured from outside every process under test: this reader holds the master of one
# pty per path, writes one key and waits for its echo there, path after path, key by key (so a noisy
# moment hits every path alike). Nothing of Node is in the measurement but what a path itself runs.
# A part of scripts/bench-terminal.mjs: reads a JSON plan on stdin, prints JSON times (ms) on stdout.
#
# plan: {"keys": n, "rounds": r, "cols": c, "rows": r, "lineEvery": n, "interval": ms, "held": bool, "paste": n,
#        "paths": [{"name", "argv", "env", "raw"}]}
# lineEvery: an Enter after this many keys (default 50); 0: never, the line keeps growing (a person typing a
# long prompt: the split view repaints a longer row with every key, and the line wraps past the width)
# interval: a key every this many ms (each path's keys are that far apart: 10, a fast typist; 100, a process
# gone cold between keys); 0: the next key as soon as the last one's echo is in
# held: the same key every time (a key held down, its repeats `interval` apart)
# paste: a "key" is this many characters written at once, its time the time to the echo of its end
# out:  {name: {"rounds": [[ms, ...], ...]} | {"error": "..."}}
import fcntl
import json
import os
import re
import select
import struct
import sys
import termios
import time

# Escape sequences (CSI, OSC, DCS/PM/APC, charset and other two-byte ones): what is left is the text a
# person would read, where a key's echo is looked for (a CSI's final byte is often a lowercase letter).
ESCAPES = re.compile(rb'\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[P^_][^\x1b]*\x1b\\|[ -/]+[0-~]|[0-~])')
# The outer terminal's queries blessed and tmux send, answered as a real terminal would.
QUERIES = ((b'\x1b[c', b'\x1b[?62;22c'), (b'\x1b[6n', b'\x1b[1;1R'))
LINE_EVERY = 50  # an Enter after this many keys: the child's line stays short (cat in cooked mode)
# A modern terminal's answers too: the split view asks for synchronized output and the kitty keyboard protocol,
# and a terminal that takes them has frames wrapped in a synchronized update (their cost is in the figure).
MODERN_QUERIES = ((b'\x1b[?2026$p', b'\x1b[?2026;2$y'), (b'\x1b[?u', b'\x1b[?0u'))


def text_of(data):
    plain = ESCAPES.sub(b'', data)
    cut = plain.rfind(b'\x1b')  # a sequence not complete yet hides nothing behind it
    return plain if cut < 0 else plain[:cut]


class Path:
    def __init__(self, spec, cols, rows):
        self.name = spec['name']
        self.raw = spec.get('raw', True)  # the path puts its terminal in raw mode (all but direct)
        self.error = None
        self.rounds = []
        pid, fd = os.forkpty()
        if pid == 0:
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, 0, 0))
                os.execvpe(spec['argv'][0], spec['argv'], spec['env'])
            finally:
                os._exit(127)
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, 0, 0))
        os.set_blocking(fd, False)
        self.pid, self.fd = pid, fd

    def read(self):
        """what is there to read now (b'' when nothing), the queries in it answered"""
        chunks = []
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except BlockingIOError:
                break
            except OSError:
                if not self.error:
                    self.error = 'the terminal closed'
                break
            if not chunk:
                break
            chunks.append(chunk)
        data = b''.join(chunks)
        for query, answer in QUERIES + MODERN_QUERIES:
            if query in data:
                os.write(self.fd, answer)
        return data

    def wait_for(self, needle, seconds, seen=b''):
        """reads until `needle` is in the text read (escapes stripped, after `seen`); False on timeout"""
        deadline = time.monotonic() + seconds
        while True:
            seen += self.read()
            if needle in text_of(seen):
                return True
            left = deadline - time.monotonic()
            if left <= 0 or self.error:
                return False
            select.select([self.fd], [], [], left)

    def cooked(self):
        """the terminal echoes by itself (the path gave it back, or never took it): no echo of the path's"""
        try:
            lflag = termios.tcgetattr(self.fd)[3]
        except termios.error:
            return True
        return bool(lflag & termios.ECHO)

    def close(self):
        try:
            os.close(self.fd)
        except OSError:
            pass


def drain(paths, seconds):
    """reads every path's output for `seconds`, so none is held back by a full pty; what was read"""
    deadline = time.monotonic() + seconds
    read = b''
    while True:
        for p in paths:
            read += p.read()
        left = deadline - time.monotonic()
        if left <= 0:
            return read
        select.select([p.fd for p in paths], [], [], left)


def main():
    plan = json.load(sys.stdin)
    paths = [Path(spec, plan.get('cols', 120), plan.get('rows', 40)) for spec in plan['paths']]
    line_every = plan.get('lineEvery', LINE_EVERY)
    try:
        for p in paths:
            # A path's own ready line comes once it has the terminal (raw): what it printed before is not it.
            # The stretch in which it took the terminal is kept: a fast path may draw its ready line in it.
            deadline = time.monotonic() + 20
            last = b''
            while p.raw and p.cooked() and not p.error and time.monotonic() < deadline:
                last = drain([p], 0.05)
            if not p.wait_for(b'ready', max(0, deadline - time.monotonic()), last):
                p.error = p.error or 'no ready line in 20 s'
        drain(paths, 0.5)  # the first frames settle
        for p in paths:
            if p.raw and not p.error and p.cooked():
                p.error = 'the terminal is not in raw mode: the path did not take it'
        interval = plan.get('interval', 0) / 1000
        held = plan.get('held', False)
        paste = plan.get('paste', 0)
        for _ in range(plan['rounds']):
            for p in paths:
                p.rounds.append([])
            started = time.monotonic()
            for i in range(plan['keys']):
                if interval:
                    # every path's key i goes out at i * interval (the paths take their turns within it)
                    left = started + i * interval - time.monotonic()
                    if left > 0:
                        drain(paths, left)
                key = b'a' if held else bytes([97 + i % 26])
                # a paste: letters, then a mark of its own whose echo says the whole paste is through
                data = bytes(97 + (i + j) % 26 for j in range(paste - 4)) + b'%04d' % (i % 10000) if paste else key
                needle = data[-4:] if paste else key
                for p in paths:
                    if p.error:
                        continue
                    t0 = time.perf_counter_ns()
                    os.write(p.fd, data)
                    if p.wait_for(needle, 5):
                        p.rounds[-1].append((time.perf_counter_ns() - t0) / 1e6)
                    else:
                        p.error = p.error or f'no echo of key {i} in 5 s'
                    drain(paths, 0.005)
                    if p.raw and not p.error and p.cooked():
                        p.error = f'the terminal echoes by itself after key {i}: the path let it go'
                if line_every and (i + 1) % line_every == 0:
                    for p in paths:
                        if not p.error:
                            os.write(p.fd, b'\r')
                    drain(paths, 0.1)
    finally:
        for p in paths:
            p.close()
    json.dump({p.name: {'error': p.error} if p.error else {'rounds': p.rounds} for p in paths}, sys.stdout)


main()
