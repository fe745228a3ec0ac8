# moto_server for the local stack: one request at a time, DynamoDB transactions and queries at the
# cost of what they touch, and (with --data DIR) the emulator's state kept between runs.
#
# Serialised: moto's DynamoDB transactions are not isolated (a failed one restores the tables as
# they were when it began, undoing other requests' writes meanwhile). Real DynamoDB transactions
# are atomic and isolated, so requests run one at a time (moto is bound by the GIL anyway).
#
# Served with connections kept open between requests (moto_http.py): werkzeug closes each one.
#
# Patched (moto_patches.py, pinned to the moto version it was written against): a transaction keeps
# an undo log instead of a deep copy of the table per item, a query reads its partition or index key
# instead of every item of the table, item attributes serialise directly, model instances are no
# longer all kept alive, an item is measured once, update expressions are parsed once, and
# DynamoDB calls skip Flask.
import logging
import os
import signal
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import moto_http  # noqa: E402
import moto_patches  # noqa: E402  (refuses to start on a moto it was not written for)
import moto_snapshot  # noqa: E402

from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app  # noqa: E402
from werkzeug.serving import run_simple  # noqa: E402

host, port = sys.argv[1], int(sys.argv[2])
data_dir = sys.argv[3] if len(sys.argv) > 3 else ""
if os.environ.get("MOTO_UNPATCHED") != "1":  # bench/emulator.sh measures moto as released too
    moto_patches.apply()
logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
app = DomainDispatcherApplication(create_backend_app)
if os.environ.get("MOTO_UNPATCHED") != "1":
    app = moto_patches.dynamodb_direct(app)
lock = threading.Lock()
snapshots = moto_snapshot.Snapshots(data_dir, lock) if data_dir else None


def serialised(environ, start_response):
    with lock:
        if snapshots:
            snapshots.touched()
        return list(app(environ, start_response))


def stop(*_):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second signal must not re-enter the write
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if snapshots:
        snapshots.write_now()
    sys.exit(0)


if snapshots:
    snapshots.load()
    snapshots.every(float(os.environ.get("SNAPSHOT_EVERY", "120")))
signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)
# Connections kept open between requests (moto_http.py), but not for moto as released.
handler = moto_http.KeepAliveHandler if os.environ.get("MOTO_UNPATCHED") != "1" else None
run_simple(host, port, serialised, threaded=True, request_handler=handler)
