#!/usr/bin/env python3
"""Reads a loopback packet capture of a live load run (scripts/live-capture) and prints where
the moves' time went, measured on the wire (issue 21):

  - move frame in (client -> server) to the opponent's frame out, p50/p90/p99/max;
  - the PostgreSQL round trips (first message -> ReadyForQuery) by statement, total time;
  - the slowest moves, with every PostgreSQL round trip that overlapped each.

usage: live_capture.py CAPTURE.pcap SERVER_PORT POSTGRES_PORT [SLOWEST]
Standard library only; IPv4 over the loopback (DLT_NULL, EN10MB, LINUX_SLL, LINUX_SLL2)."""
import collections
import json
import re
import struct
import sys


def packets(path):
    """(time, src, sport, dst, dport, payload) of every IPv4 TCP segment with data."""
    with open(path, 'rb') as f:
        header = f.read(24)
        nano = struct.unpack('<I', header[:4])[0] == 0xa1b23c4d
        link = struct.unpack('<I', header[20:24])[0]
        skip = {0: 4, 1: 14, 113: 16, 276: 20}.get(link, 14)
        while True:
            record = f.read(16)
            if len(record) < 16:
                return
            seconds, fraction, length, _ = struct.unpack('<IIII', record)
            data = f.read(length)
            ip = data[skip:]
            if len(ip) < 20 or ip[0] >> 4 != 4 or ip[9] != 6:
                continue
            ihl = (ip[0] & 15) * 4
            tcp = ip[ihl:struct.unpack('>H', ip[2:4])[0]]
            sport, dport = struct.unpack('>HH', tcp[:4])
            payload = tcp[(tcp[12] >> 4) * 4:]
            if payload:
                yield (seconds + fraction / (1e9 if nano else 1e6), ip[12:16], sport, ip[16:20], dport, payload)


def websocket_frames(buffer):
    """Text frames completed in `buffer` (unmasked), consumed from it."""
    frames = []
    while len(buffer) >= 2:
        masked, length, at = buffer[1] & 0x80, buffer[1] & 0x7f, 2
        if length == 126:
            if len(buffer) < 4:
                break
            length, at = struct.unpack('>H', buffer[2:4])[0], 4
        elif length == 127:
            if len(buffer) < 10:
                break
            length, at = struct.unpack('>Q', buffer[2:10])[0], 10
        key = b''
        if masked:
            if len(buffer) < at + 4:
                break
            key, at = bytes(buffer[at:at + 4]), at + 4
        if len(buffer) < at + length:
            break
        payload = bytes(buffer[at:at + length])
        if masked:
            payload = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
        if buffer[0] & 0x0f == 1:
            frames.append(payload)
        del buffer[:at + length]
    return frames


def main():
    path, port, pg_port = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    slowest = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    streams = collections.defaultdict(bytearray)
    game_of, upgraded, events, pg = {}, set(), [], []
    for t, src, sport, dst, dport, payload in packets(path):
        buffer = streams[(src, sport, dst, dport)]
        buffer += payload
        if port in (sport, dport):
            client = (src, sport) if dport == port else (dst, dport)
            if client not in upgraded:
                end = buffer.find(b'\r\n\r\n')
                if end < 0:
                    continue
                head = bytes(buffer[:end])
                del buffer[:end + 4]
                opened = re.match(rb'GET /api/games/(\d+)/socket', head)
                if opened:
                    game_of[client] = int(opened.group(1))
                elif head.startswith(b'HTTP/1.1 101'):
                    upgraded.add(client)
                continue
            for frame in websocket_frames(buffer):
                try:
                    events.append((t, dport == port, client, json.loads(frame)))
                except ValueError:
                    pass
        elif pg_port in (sport, dport):
            while len(buffer) >= 5:
                length = struct.unpack('>I', buffer[1:5])[0]
                if len(buffer) < 1 + length:
                    break
                pg.append((t, dport == pg_port, sport if dport == pg_port else dport, chr(buffer[0]),
                           bytes(buffer[5:1 + length][:300])))
                del buffer[:1 + length]

    sent, moves = {}, {}
    for t, inbound, client, event in events:
        if inbound and event.get('type') == 'move':
            sent[(game_of.get(client), event.get('ply', -1) + 1)] = (t, client)
        elif not inbound and event.get('type') == 'move':
            key = (game_of.get(client), event['move']['ply'])
            if key in sent and sent[key][1] != client:
                moves[key] = (sent[key][0], t)

    def percentiles(name, values):
        values = sorted(values)
        if not values:
            print(f'{name}: none')
            return
        q = lambda p: values[min(len(values) - 1, int(p * len(values)))]
        print(f'{name}: n {len(values)}, p50 {q(.5):.2f}, p90 {q(.9):.2f}, p99 {q(.99):.2f}, max {values[-1]:.2f} ms')

    percentiles('move in -> opponent out, on the wire', [(b - a) * 1000 for a, b in moves.values()])
    if not moves:
        return
    start_of_play = min(a for a, _ in moves.values())

    statements, open_trips, trips = {}, {}, []
    for t, to_pg, connection, kind, body in pg:
        if to_pg and kind == 'P':
            name, _, rest = body.partition(b'\0')
            statements[(connection, name)] = rest.split(b'\0')[0]
        if to_pg and connection not in open_trips:
            if kind == 'Q':
                label = b'Q: ' + body.rstrip(b'\0')
            elif kind == 'B':
                name = body.partition(b'\0')[2].split(b'\0')[0]
                label = statements.get((connection, name), b'(prepared before the capture) ' + name)
            elif kind == 'P':
                label = body.partition(b'\0')[2].split(b'\0')[0]
            else:
                label = kind.encode() + b' (Sync alone: sqlx pings a connection going back to the pool)' if kind == 'S' else kind.encode()
            open_trips[connection] = (t, ' '.join(label.decode(errors='replace').split())[:90])
        if not to_pg and kind == 'Z' and connection in open_trips:
            began, label = open_trips.pop(connection)
            trips.append((began, t, connection, label))
    trips.sort()
    by_label = collections.defaultdict(list)
    for began, ended, _, label in trips:
        if began >= start_of_play:
            by_label[label].append((ended - began) * 1000)
    print('\nPostgreSQL round trips during play, by statement (count, total, p50, max ms):')
    for label, times in sorted(by_label.items(), key=lambda item: -sum(item[1]))[:15]:
        times.sort()
        print(f'{len(times):7d} {sum(times):9.0f} {times[len(times) // 2]:7.2f} {times[-1]:8.2f}  {label}')
    print(f'\nThe {slowest} slowest moves (times from the move frame in, ms):')
    for (game, ply), (a, b) in sorted(moves.items(), key=lambda item: item[1][0] - item[1][1])[:slowest]:
        print(f'game {game} ply {ply} at {a - start_of_play:.3f} s of play: {(b - a) * 1000:.1f} ms')
        for began, ended, connection, label in trips:
            if ended >= a and began <= b:
                print(f'  {(began - a) * 1000:8.2f} .. {(ended - a) * 1000:8.2f}  connection {connection}  {label[:70]}')


if __name__ == '__main__':
    main()
