# The emulator's HTTP server: werkzeug's development server (moto's own), with connections kept
# open between requests.
import io
import sys
import traceback

from werkzeug.serving import WSGIRequestHandler


class KeepAliveHandler(WSGIRequestHandler):
    """werkzeug's request handler (the same WSGI environ) that keeps the connection open between
    requests. werkzeug's own closes it after every response, so every SDK call paid a new TCP
    connection, a new server thread and a new selector: 42% of the emulator's CPU over
    shared/collections' tests (20.2 → 11.7 CPU-s), and the tests ran in 13.3 s instead of 21.6.

    The applications here (moto's, behind moto_serial.serialised) return whole bodies, so a
    response is sent as one write with its length; a request's body is read whole before the
    application runs, so the next request on the connection starts at its request line whatever
    the application read of it."""

    disable_nagle_algorithm = True  # one write per response: nothing to hold back for an ACK
    timeout = 300  # an idle connection's thread ends (the Go SDK drops idle ones after 90 s)

    def run_wsgi(self):
        if self.headers.get("Expect", "").lower().strip() == "100-continue":
            self.wfile.write(b"HTTP/1.1 100 Continue\r\n\r\n")
        environ = self.make_environ()
        if environ.get("wsgi.input_terminated"):
            body = environ["wsgi.input"].read()
        else:
            body = self.rfile.read(int(environ.get("CONTENT_LENGTH") or 0))
        environ["wsgi.input"] = io.BytesIO(body)
        started = []

        def start_response(status, headers, exc_info=None):
            started[:] = [status, headers]
            return lambda data: None  # the write() callable: the applications here return bodies

        try:
            chunks = self.server.app(environ, start_response)
            try:
                content = b"".join(chunks)
            finally:
                getattr(chunks, "close", lambda: None)()
            status, headers = started
        except Exception:
            traceback.print_exc(file=sys.stderr)
            status, headers, content = "500 INTERNAL SERVER ERROR", [("Content-Type", "text/plain")], b"emulator error"
            self.close_connection = True
        code, _, message = status.partition(" ")
        self.send_response(int(code), message)
        names = set()
        for name, value in headers:
            self.send_header(name, value)
            names.add(name.lower())
        if "content-length" not in names and self.command != "HEAD" and int(code) not in (204, 304) and not 100 <= int(code) < 200:
            self.send_header("Content-Length", str(len(content)))
        self._headers_buffer.append(b"\r\n")  # end_headers(), with the body in the same write
        if self.command != "HEAD":
            self._headers_buffer.append(content)
        self.flush_headers()
