#!/usr/bin/env python3
"""A real SMTP server for the mail tests and the mail benchmark (aiosmtpd).

Prints the port it listens on (127.0.0.1, chosen by the OS) on its first line, then
appends every message it accepts to --out as one JSON line: the envelope, every header,
the text and HTML parts (decoded) and the raw message.

  --stall         accept the connection and the envelope, never answer the data (an
                  instance that sends to it hangs until it is killed)
  --fail-first N  answer the first N messages with 451 (a transient refusal)
"""

import argparse
import asyncio
import email
import json
from email import policy

from aiosmtpd.smtp import SMTP


class Handler:
    def __init__(self, out, stall, fail_first):
        self.out = out
        self.stall = stall
        self.fail_first = fail_first

    async def handle_DATA(self, server, session, envelope):
        if self.stall:
            await asyncio.sleep(3600)
        if self.fail_first > 0:
            self.fail_first -= 1
            return "451 4.3.0 try again later"
        message = email.message_from_bytes(envelope.content, policy=policy.default)
        text = message.get_body(preferencelist=("plain",))
        html = message.get_body(preferencelist=("html",))
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "headers": {name.lower(): str(value) for name, value in message.items()},
            "content_type": message.get_content_type(),
            "text": text.get_content() if text is not None else None,
            "html": html.get_content() if html is not None else None,
            "raw": envelope.content.decode("utf-8", "replace"),
        }
        with open(self.out, "a", encoding="utf-8") as out:
            out.write(json.dumps(record) + "\n")
        return "250 OK"


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--stall", action="store_true")
    parser.add_argument("--fail-first", type=int, default=0)
    args = parser.parse_args()
    handler = Handler(args.out, args.stall, args.fail_first)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(handler, hostname="sink.test"), "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
