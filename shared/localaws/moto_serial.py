# moto_server with one request at a time. moto's DynamoDB transactions are not isolated: a failed
# transaction restores a copy of the whole table taken when it began, undoing writes that other
# requests made meanwhile. Real DynamoDB transactions are atomic and isolated, so the emulator
# serialises requests to behave the same (moto is bound by Python's GIL anyway).
import signal
import sys
import threading

from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
from werkzeug.serving import run_simple

host, port = sys.argv[1], int(sys.argv[2])
app = DomainDispatcherApplication(create_backend_app)
lock = threading.Lock()


def serialised(environ, start_response):
    with lock:
        return list(app(environ, start_response))


signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
signal.signal(signal.SIGINT, lambda *_: sys.exit(0))
run_simple(host, port, serialised, threaded=True)
