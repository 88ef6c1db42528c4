"""The app factory: configuration, the app's services (``server.services``), blueprints and the
Socket.IO layer."""

from __future__ import annotations

import mimetypes

from flask import Flask, jsonify
from flask_socketio import SocketIO
from werkzeug.exceptions import HTTPException

from .budget import ServerBusy
from .clients import TooMany
from .config import ASSETS, Config
from .i18n import t
from .services import Services, services
from .web.common import drain_body

# The page loads only its own scripts, styles and sockets: no inline script or style anywhere.
# 'wasm-unsafe-eval' lets the student-code worker compile Pyodide's WebAssembly (it allows no JS eval);
# worker-src 'self': only our own worker script, never a blob: or data: one.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; "
    "img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
# Served with these types whatever the system's mime tables say: browsers compile .wasm by streaming
# only as application/wasm, and load a module (.mjs) only with a JavaScript type (nosniff).
mimetypes.add_type("application/wasm", ".wasm")
mimetypes.add_type("text/javascript", ".mjs")
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}

# Created once, initialised per app. Threading mode is named explicitly: auto-detection would
# pick eventlet if it happened to be installed. msgpack sends each binary frame as one message.
socketio = SocketIO()


def create_app(config: Config | None = None) -> Flask:
    """Build the app; ``config`` defaults to ``Config()``."""
    config = config or Config()
    app = Flask(
        __name__,
        static_folder=str(ASSETS / "static"),
        template_folder=str(ASSETS / "templates"),
    )
    app.config["SECRET_KEY"] = config.secret_key
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config["MAX_CONTENT_LENGTH"] = config.max_upload_bytes
    app.config["TESTING"] = config.testing
    Services.build(config).install(app)  # read with server.services.services()
    if config.trusted_proxies > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        n = config.trusted_proxies
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n, x_host=n)  # type: ignore[method-assign]

    from .web.api import api
    from .web.assignments import assignments
    from .web.assignments import pages as assignment_pages
    from .web.code import code
    from .web.exports import exports
    from .web.lab import lab
    from .web.language import install as install_languages
    from .web.making import making
    from .web.pages import pages
    from .web.tiles import tiles

    install_languages(app)  # first: every later hook and handler writes in the reader's language
    app.register_blueprint(pages)
    app.register_blueprint(api, url_prefix="/api")
    app.register_blueprint(exports, url_prefix="/api")
    app.register_blueprint(making, url_prefix="/api")
    app.register_blueprint(lab, url_prefix="/api")
    app.register_blueprint(code, url_prefix="/api")
    app.register_blueprint(tiles, url_prefix="/api")
    app.register_blueprint(assignments, url_prefix="/api")
    app.register_blueprint(assignment_pages)

    @app.after_request
    def security_headers(response):
        drain_body()  # a refusal that left the body unread reaches the client as words
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    @app.errorhandler(TooMany)
    def too_many(err: TooMany):
        return jsonify(error=str(err)), 429

    @app.errorhandler(ServerBusy)
    def busy(err: ServerBusy):
        return jsonify(error=str(err)), 503

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException):
        message = err.description or err.name
        if err.description == type(err).description and t(f"web.http.{err.code}") != f"web.http.{err.code}":
            message = t(f"web.http.{err.code}")  # werkzeug's own words, in the reader's language
        if err.code == 413:
            message = t("web.app.upload_too_large", mb=config.max_upload_bytes // (1024 * 1024))
        return jsonify(error=message), err.code

    @app.errorhandler(Exception)
    def internal_error(err: Exception):
        app.logger.exception("unhandled error")
        return jsonify(error=t("web.app.internal_error_server_keeps_running", name=type(err).__name__)), 500

    from .live.handlers import register_handlers

    # The one SocketIO object keeps the client manager an earlier app's message queue made (tests make
    # many apps in one process): drop it, so that an app without a queue gets none.
    socketio.server_options.pop("client_manager", None)
    socketio.init_app(
        app,
        async_mode="threading",
        serializer=config.serializer,
        message_queue=config.redis_url or config.message_queue,  # every emit through Redis pub/sub
        max_http_buffer_size=1_000_000,
        ping_interval=config.socket_ping_interval,
        ping_timeout=30,
        cors_allowed_origins=config.socket_origins,  # None: this server's own origin only
    )
    register_handlers(socketio, app)
    from .live.assignment_watch import register_assignment_watch

    register_assignment_watch(socketio, app)
    _start_grading(app, config)
    return app


def _start_grading(app: Flask, config: Config) -> None:
    """The graders announce each change to the assignment's room (through the message queue with
    Redis, so a grader in another process reaches the page) and start, unless ``testing`` (tests
    start them) or ``graders`` is 0; they stop with the process."""
    import atexit

    graders = services(app).graders

    def announce(aid: str, sid: str, status: str) -> None:
        socketio.emit("assignment_update", {"id": aid, "submission": sid, "status": status},
                      to=f"assignment:{aid}")

    graders.announce = announce
    if not config.testing and config.graders > 0:
        graders.start()
        atexit.register(graders.stop, 2.0)
