"""A Streamlit client that speaks the browser's own websocket protocol (Streamlit 1.67).

One :class:`StreamlitSession` is one browser tab, without the browser: it fetches the
page and ``/_stcore/health`` over HTTP (which sets the XSRF cookie, and a load balancer's
affinity cookie), opens ``/_stcore/stream`` with the subprotocols the frontend sends
(``streamlit``, the XSRF token, and on a reconnect the old session id), and exchanges
the ``streamlit.proto`` messages the frontend exchanges:

* open a link = a ``BackMsg.rerun_script`` carrying the link's query string and the page
  name from its path (no page hash yet: the server resolves the name, as on a cold load);
* change a widget = a ``rerun_script`` with the page's hash, the current query string
  (as the server last set it with ``page_info_changed``) and the value of every widget
  on screen, the changed one included (the frontend's widget manager sends them all);
* a fragment's timer (``st.fragment(run_every=...)``) = a ``rerun_script`` naming the
  fragment (``fragment_id``, ``is_auto_rerun``) with the same widget states; the server
  announces each timer with an ``auto_rerun`` message during a run, and a full run starts
  the page's timers afresh (see :meth:`StreamlitSession.timers`);
* a run the server starts by itself (a fragment it reruns when what it watches changes:
  ``server/nudge.py``) arrives unasked: :meth:`StreamlitSession.await_run` reads it;
* upload a file = ``file_urls_request`` → ``file_urls_response`` → an HTTP PUT of the
  file to ``/_stcore/upload_file/<session>/<file>`` with the XSRF header and cookies →
  a rerun whose widget state names the uploaded file.

A request is done when the server sends ``script_finished`` with a successful status
(a run interrupted by ``st.rerun``/``st.switch_page`` is followed by the next one).
Everything the server sends meanwhile is summarised in a :class:`Run`: the widgets with
their values, the texts (markdown, headings, alerts, chart titles), exceptions and error
boxes, bytes, and the query string. Nothing is drawn, so one process can hold hundreds
of sessions; the code is blocking and runs as-is under gevent (Locust) or threads.

Source read for this (installed Streamlit 1.67): ``web/server/starlette/
starlette_websocket.py`` (handshake, subprotocols), ``runtime/app_session.py``
(``handle_backmsg``, ``request_rerun``), ``web/server/starlette/starlette_routes.py``
(the upload route, the XSRF cookie) and ``proto/*_pb2.pyi``.
"""

from __future__ import annotations

import json
import socket
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import requests
import websocket
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

XSRF_COOKIE = "_streamlit_xsrf"
# Custom components' trigger widgets: "<prefix>_<component id>__<event>", where the event
# "events" carries the list of triggered events (components/v2/bidi_component/main.py).
INTERNAL_KEY_PREFIX = "$$STREAMLIT_INTERNAL_KEY"
DONE = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}
# A fragment's rerun that starts no run within this long asked for a fragment the server no
# longer has (Streamlit drops such a request without a word).
FRAGMENT_GONE_S = 10.0
# Element types that carry readable text, and the field that holds it.
_TEXT_FIELDS = {"markdown": "body", "heading": "body", "alert": "body", "text": "body",
                "code": "code_text", "progress": "text"}


class Disconnected(Exception):
    """The websocket closed (server gone, replica killed, or the server dropped us)."""


@dataclass
class Widget:
    """A widget as the server last drew it, with the value the frontend would hold."""

    id: str
    kind: str  # the Element field: slider, selectbox, checkbox, button_group, ...
    label: str
    options: list[str]
    value: Any  # python value (list for sliders, str for a selectbox, ...), None for buttons
    select_slider: bool = False
    in_sidebar: bool = False
    fragment_id: str = ""  # drawn by a fragment: a change reruns that fragment only


@dataclass
class Run:
    """What one request (open, widget change, upload) got back, up to script_finished."""

    seconds: float = 0.0
    finished: bool = False
    query_string: str = ""
    session_id: str = ""
    page_hash: str = ""
    page: str = ""  # the URL path of the page the server ran ("" = home)
    widgets: dict[str, Widget] = field(default_factory=dict)  # by label
    texts: list[str] = field(default_factory=list)
    chart_titles: list[str] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    error_boxes: list[str] = field(default_factory=list)
    components: dict[str, str] = field(default_factory=dict)  # custom component name → id
    charts: list[str] = field(default_factory=list)  # ids of charts with a selection
    bytes: int = 0
    messages: int = 0
    problem: str = ""  # timeout / disconnect / page not found: empty when the run is fine
    fragment_only: bool = False  # the server ran fragments only (the rest of the page stays)
    page_runs: int = 0  # runs of the whole page the request took (st.rerun, switch_page)
    runs: int = 0  # script runs it took, of the page or of fragments

    def all_text(self) -> str:
        return "\n".join(self.texts + self.chart_titles)


def _widget_value(kind: str, element) -> tuple[Any, list[str], bool]:
    """The value the frontend holds for a freshly drawn widget, its options, select_slider?"""
    if kind == "slider":
        options = list(element.options)
        if options:  # a select_slider: string options, the value is their labels
            if element.set_value:
                return list(element.raw_value), options, True
            return [options[int(i)] for i in element.default], options, True
        return list(element.value if element.set_value else element.default), [], False
    if kind in ("selectbox", "radio"):
        options = list(element.options)
        if element.set_value:
            return element.raw_value, options, False
        # index=None: no default at all (not option 0), and nothing is sent for it.
        chosen = element.default if element.HasField("default") else -1
        return (options[chosen] if 0 <= chosen < len(options) else None, options, False)
    if kind == "checkbox":
        return bool(element.value if element.set_value else element.default), [], False
    if kind == "button_group":
        options = [o.content for o in element.options]
        if element.set_value:
            return list(element.raw_values), options, False
        return [options[i] for i in element.default], options, False
    if kind == "number_input":
        return (element.value if element.set_value else element.default), [], False
    return None, [], False  # buttons, uploaders, charts with selections: no standing value


def widget_state(widget: Widget, value: Any) -> WidgetState | None:
    """``value`` encoded the way the frontend sends it for this kind of widget."""
    state = WidgetState(id=widget.id)
    if widget.kind == "slider":
        values = value if isinstance(value, list | tuple) else [value]
        if widget.select_slider:
            state.string_array_value.data.extend(str(v) for v in values)
        else:
            state.double_array_value.data.extend(float(v) for v in values)
    elif widget.kind in ("selectbox", "radio"):
        if value is None:
            return None
        state.string_value = str(value)
    elif widget.kind == "checkbox":
        state.bool_value = bool(value)
    elif widget.kind == "button_group":
        state.string_array_value.data.extend(str(v) for v in value)
    elif widget.kind == "number_input":
        state.double_value = float(value)
    elif widget.kind == "button":
        state.trigger_value = bool(value)
    else:
        return None
    return state


class StreamlitSession:
    """One simulated browser tab on one Streamlit server (or a balancer in front of it).

    Parameters
    ----------
    base_url : str
        ``http://host:port`` of the app (or of the balancer).
    timeout : float
        Seconds to wait for a run to finish before the request counts as failed.
    connect_timeout : float, optional
        Seconds to wait for the page, the health check and the websocket handshake
        (default: ``timeout``); a browser gives up on a handshake after about 20 s.
    headers : mapping, optional
        Headers sent with every request and the handshake (what a proxy on the way adds,
        e.g. ``X-Forwarded-For``).
    source_address : str, optional
        The local address the websocket connects from (another machine's browser, as the
        server sees it: e.g. ``127.0.0.2``, which is not ``localhost``'s own).
    """

    def __init__(self, base_url: str, *, timeout: float = 180.0,
                 connect_timeout: float | None = None, headers: Mapping[str, str] | None = None,
                 source_address: str | None = None, locale: str = "en-GB") -> None:
        self.base_url = base_url.rstrip("/")
        self.locale = locale  # the browser's language (navigator.language), sent with each rerun
        self.timeout = timeout
        self.connect_timeout = timeout if connect_timeout is None else connect_timeout
        self.headers = dict(headers or {})
        self.source_address = source_address
        self.handshake_seconds: float | None = None  # the last handshake's duration
        self.http = requests.Session()  # cookies: XSRF, and the balancer's affinity cookie
        self.http.headers.update(self.headers)
        self.ws: websocket.WebSocket | None = None
        self.session_id = ""
        self.page_name = ""
        self.page_hash = ""
        self.query_string = ""
        self.widgets: dict[str, Widget] = {}  # the current screen's widgets, by label
        # The fragments the page asked to rerun on a timer: fragment id → seconds.
        self.timers: dict[str, float] = {}
        self.bytes_received = 0
        self._last_size = 0
        self.unexpected: list[str] = []  # messages that arrived while idle, summarised

    # -- connection ---------------------------------------------------------------
    def _connect(self, resume: bool) -> None:
        url = urlsplit(self.base_url)
        scheme = "wss" if url.scheme == "https" else "ws"
        xsrf = self.http.cookies.get(XSRF_COOKIE) or ""
        # The frontend's subprotocol list: selected protocol, XSRF token, session to resume.
        protocols = ["streamlit", xsrf] + ([self.session_id] if resume and self.session_id
                                           else [])
        cookie = "; ".join(f"{c.name}={c.value}" for c in self.http.cookies)
        started = time.perf_counter()
        from_address = None if self.source_address is None else socket.create_connection(
            (url.hostname, url.port or (443 if url.scheme == "https" else 80)),
            timeout=self.connect_timeout, source_address=(self.source_address, 0))
        self.ws = websocket.create_connection(
            f"{scheme}://{url.netloc}{url.path}/_stcore/stream",
            subprotocols=protocols,
            cookie=cookie or None,
            header=[f"{name}: {value}" for name, value in self.headers.items()],
            origin=self.base_url,
            timeout=self.connect_timeout,
            enable_multithread=False,
            socket=from_address,
        )
        self.handshake_seconds = time.perf_counter() - started

    def _http_get(self, path: str) -> requests.Response:
        reply = self.http.get(f"{self.base_url}/{path.lstrip('/')}",
                              timeout=self.connect_timeout)
        reply.raise_for_status()
        return reply

    def open(self, path: str, query: str = "") -> Run:
        """Open ``/<path>?<query>`` as a browser does: page, health check, websocket, run."""
        self.page_name = path.strip("/")
        self.query_string = query
        self._http_get(f"/{self.page_name}" + (f"?{query}" if query else ""))
        self._http_get("/_stcore/health")  # sets the XSRF cookie (and passes the balancer)
        self._connect(resume=False)
        return self._rerun(widget_states=None, page_hash="")

    def reconnect(self) -> Run:
        """After a lost connection: reconnect and rerun the page from its link.

        As the frontend does, the old session id travels in the handshake; a server that
        no longer knows it (another replica) starts a new session, which rebuilds the
        view from the query string: the link is the state.
        """
        self.close()
        self._http_get("/_stcore/health")
        self._connect(resume=True)
        return self._rerun(widget_states=None, page_hash="")

    def close(self) -> None:
        if self.ws is not None:
            try:
                self.ws.close(timeout=1)
            except Exception:  # noqa: BLE001, S110 - closing a dead socket: nothing to do
                pass
            self.ws = None

    # -- requests -----------------------------------------------------------------
    def set_widget(self, label: str, value: Any) -> Run:
        """Change the widget labelled ``label`` to ``value`` and wait for the rerun."""
        widget = self.widgets[label]
        return self._rerun(self._states({widget.id: value}), page_hash=self.page_hash,
                           fragment_id=widget.fragment_id, by_widget=True)

    def navigate(self, path: str, query: str = "") -> Run:
        """Go to ``/<path>?<query>`` in this session, as the app's menu does (the session,
        and what it holds, stay)."""
        self.page_name, self.query_string = path.strip("/"), query
        return self._rerun(self._states({}), page_hash="")

    def rerun(self) -> Run:
        """Rerun the page as it stands (what a fragment's timer or a focus change does)."""
        return self._rerun(self._states({}), page_hash=self.page_hash)

    def rerun_fragment(self, fragment_id: str) -> Run:
        """Rerun one fragment as its timer does in the browser (only that fragment runs,
        unless it asks for a rerun of the whole page). A fragment the server no longer has
        (the page changed under a timer) is not run and nothing is answered: the run comes
        back empty after :data:`FRAGMENT_GONE_S` (its messages, if they come later, are read
        as a run the server started)."""
        return self._rerun(self._states({}), page_hash=self.page_hash, fragment_id=fragment_id)

    def click(self, label: str) -> Run:
        widget = self.widgets[label]
        states = self._states({})
        states.append(widget_state(widget, True))
        return self._rerun(states, page_hash=self.page_hash, fragment_id=widget.fragment_id,
                           by_widget=True)

    def send_text(self, widget_id: str, text: str) -> Run:
        """Rerun with the widget ``widget_id`` holding the string ``text``, sent as-is (a
        chart's selection travels so, as JSON text)."""
        state = WidgetState(id=widget_id, string_value=text)
        return self._rerun([s for s in self._states({}) if s.id != widget_id] + [state],
                           page_hash=self.page_hash)

    def trigger(self, component_id: str, event: str, value_json: str) -> Run:
        """Send a custom component's (``st.components.v2``) trigger ``event`` with the value
        ``value_json`` (JSON text, sent as-is: it may be anything a script makes up)."""
        state = WidgetState(id=f"{INTERNAL_KEY_PREFIX}_{component_id}__events")
        state.json_trigger_value = f'[{{"event": {json.dumps(event)}, "value": {value_json}}}]'
        return self._rerun(self._states({}) + [state], page_hash=self.page_hash)

    def put_file(self, name: str, data: bytes, content_type: str = "text/csv"):
        """Send ``data`` as file ``name`` to the session's upload address, as the frontend
        does before it tells the uploader; returns the file's ``file_urls`` (id and URLs).
        Alone (no rerun naming it), the file is sent without any uploader reading it."""
        request = BackMsg()
        request.file_urls_request.request_id = uuid.uuid4().hex
        request.file_urls_request.session_id = self.session_id
        request.file_urls_request.file_names.append(name)
        self._send(request)
        reply = self._pump(lambda msg: msg.WhichOneof("type") == "file_urls_response",
                           time.monotonic() + self.timeout)
        if reply is None:
            raise TimeoutError("no file_urls_response from the server")
        urls = reply.file_urls_response.file_urls[0]
        put = self.http.put(
            self.base_url + urls.upload_url if urls.upload_url.startswith("/")
            else urls.upload_url,
            files={"file": (name, data, content_type)},
            headers={"X-Xsrftoken": self.http.cookies.get(XSRF_COOKIE) or ""},
            timeout=self.timeout,
        )
        put.raise_for_status()
        return urls

    def upload(self, label: str, name: str, data: bytes, content_type: str = "text/csv") -> Run:
        """Upload ``data`` as file ``name`` through the uploader labelled ``label``."""
        widget = self.widgets[label]
        urls = self.put_file(name, data, content_type)
        state = WidgetState(id=widget.id)
        info = state.file_uploader_state_value.uploaded_file_info.add()
        info.name, info.size, info.file_id = name, len(data), urls.file_id
        info.file_urls.CopyFrom(urls)
        states = [s for s in self._states({}) if s.id != widget.id] + [state]
        return self._rerun(states, page_hash=self.page_hash)

    def idle(self, seconds: float) -> None:
        """Stay connected for ``seconds`` reading what arrives (pings are answered)."""
        deadline = time.monotonic() + seconds
        self._pump(lambda msg: False, deadline, record=self._note_unexpected)

    # -- internals ----------------------------------------------------------------
    def _states(self, changes: dict[str, Any]) -> list[WidgetState]:
        """Every widget on screen with its value, ``changes`` applied (by widget id)."""
        states = []
        for widget in self.widgets.values():
            value = changes.get(widget.id, widget.value)
            if widget.kind == "button":
                continue  # a button sends a trigger only when clicked
            state = widget_state(widget, value)
            if state is not None:
                states.append(state)
        return states

    def _send(self, message: BackMsg) -> None:
        if self.ws is None:
            raise Disconnected("not connected")
        try:
            self.ws.send_binary(message.SerializeToString())
        except (OSError, websocket.WebSocketException) as error:
            raise Disconnected(f"send failed: {error}") from error

    def _rerun(self, widget_states: list[WidgetState] | None, page_hash: str,
               fragment_id: str = "", by_widget: bool = False) -> Run:
        """Ask for a run (of ``fragment_id`` only, when given: its timer's, or with
        ``by_widget`` a change of one of its widgets, as the browser sends them) and read it."""
        request = BackMsg()
        state = request.rerun_script
        state.query_string = self.query_string
        state.page_name = self.page_name if not page_hash else ""
        state.page_script_hash = page_hash
        if fragment_id:
            state.fragment_id, state.is_auto_rerun = fragment_id, not by_widget
        if widget_states:
            state.widget_states.widgets.extend(widget_states)
        context = state.context_info
        context.timezone, context.timezone_offset = "Europe/Berlin", -60
        context.locale = self.locale
        context.url = f"{self.base_url}/{self.page_name}?{self.query_string}"
        context.is_embedded, context.color_scheme = False, "light"
        started = time.perf_counter()
        self._send(request)
        if fragment_id:
            if (first := self._run_start(FRAGMENT_GONE_S)) is None:
                return Run(query_string=self.query_string, finished=True, fragment_only=True,
                           seconds=time.perf_counter() - started, session_id=self.session_id,
                           page_hash=self.page_hash, widgets=dict(self.widgets))
            # A widget's change is answered by its fragment's run (or the page's, if the
            # fragment asks for it); a run the server started by itself (a nudge's)
            # may come first.
            return self._collect(started, first, fragment=fragment_id if by_widget else "")
        # A run the server started by itself (a nudge's fragment) may finish first: a page
        # request is done when a run of the page is.
        return self._collect(started, page=True)

    def await_run(self, seconds: float) -> Run | None:
        """Wait up to ``seconds`` for a run the server starts by itself (a fragment it
        reruns when the class changes: server/nudge.py) and read it to its end; None when
        none starts. Anything else that arrives meanwhile is noted in :attr:`unexpected`."""
        if (first := self._run_start(seconds)) is None:
            return None
        return self._collect(time.perf_counter(), first)

    def _run_start(self, seconds: float) -> ForwardMsg | None:
        """The first message of the next run (``new_session``) within ``seconds``, or None;
        what comes before it is noted in :attr:`unexpected`."""
        return self._pump(lambda msg: msg.WhichOneof("type") == "new_session",
                          time.monotonic() + seconds,
                          record=lambda msg: msg.WhichOneof("type") == "new_session"
                          or self._note_unexpected(msg))

    def _collect(self, started: float, first: ForwardMsg | None = None,
                 page: bool = False, fragment: str = "") -> Run:
        """Read one run's messages (``first`` already read) until it finishes (with
        ``page``, until a run of the whole page does; with ``fragment``, until a run of
        the page or of that fragment does)."""
        run = Run(query_string=self.query_string)
        screen: dict[tuple[int, ...], Widget] = {}
        fragments_run: set[str] = set()

        def record(msg: ForwardMsg) -> bool:
            if msg.WhichOneof("type") == "new_session":
                fragments_run.update(msg.metadata.run.fragment_ids)
            return self._record(msg, run, screen)

        def answered() -> bool:
            return not fragment or run.page_runs > 0 or fragment in fragments_run

        if first is not None:
            record(first)  # (its size is still the last read)
        deadline = time.monotonic() + self.timeout
        done = {ForwardMsg.FINISHED_SUCCESSFULLY} if page else DONE
        finished = self._pump(lambda msg: msg.WhichOneof("type") == "script_finished"
                              and msg.script_finished in done and answered(), deadline,
                              record=record)
        run.seconds = time.perf_counter() - started
        run.finished = finished is not None
        if not run.finished and not run.problem:
            run.problem = f"timeout after {self.timeout:.0f} s"
        if run.finished:
            drawn = {w.label: w for w in screen.values()}
            self.widgets = {**self.widgets, **drawn} if run.fragment_only else drawn
            run.widgets = dict(self.widgets)
        run.session_id, run.page_hash = self.session_id, self.page_hash
        return run

    def _record(self, msg: ForwardMsg, run: Run, screen: dict) -> bool:
        """Fold one message into ``run``; True to keep reading."""
        kind = msg.WhichOneof("type")
        run.messages += 1
        run.bytes += self._last_size
        if kind == "new_session":
            run.runs += 1
            self.session_id = msg.new_session.initialize.session_id
            fragment = bool(msg.metadata.run.fragment_ids)
            run.fragment_only = fragment and not run.page_runs
            if not fragment:
                run.page_runs += 1
                self.timers.clear()  # the page's fragments announce their timers again
                # A new run of the page (e.g. after st.rerun) redraws it; a fragment's
                # run after it redraws only the fragment, within the page just read.
                screen.clear()
                run.texts.clear(), run.chart_titles.clear()
        elif kind == "auto_rerun":
            self.timers[msg.auto_rerun.fragment_id] = msg.auto_rerun.interval
        elif kind == "stop_auto_rerun":
            for fragment_id in msg.stop_auto_rerun.fragment_ids:
                self.timers.pop(fragment_id, None)
        elif kind == "navigation":
            # st.navigation names the page that runs (new_session names the main script):
            # the frontend reruns with this hash.
            nav = msg.navigation
            self.page_hash = nav.page_script_hash
            paths = {p.page_script_hash: p.url_pathname for p in nav.app_pages}
            self.page_name = run.page = paths.get(nav.page_script_hash, "")
        elif kind == "page_info_changed":
            self.query_string = run.query_string = msg.page_info_changed.query_string
        elif kind == "page_not_found":
            run.problem = f"page not found: {msg.page_not_found.page_name!r}"
        elif kind == "session_event" and msg.session_event.WhichOneof("type") == (
                "script_compilation_exception"):
            run.exceptions.append(msg.session_event.script_compilation_exception.message)
        elif kind == "ref_hash":
            run.problem = "server referenced a cached message this client never claimed"
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            self._record_element(msg, run, screen)
        return True

    def _record_element(self, msg: ForwardMsg, run: Run, screen: dict) -> None:
        element = msg.delta.new_element
        kind = element.WhichOneof("type")
        proto = getattr(element, kind)
        path = tuple(msg.metadata.delta_path)
        if kind == "exception":
            run.exceptions.append(f"{proto.type}: {proto.message}"[:300])
        elif kind == "alert" and proto.format == proto.ERROR:
            run.error_boxes.append(proto.body[:300])
        if kind in _TEXT_FIELDS:
            run.texts.append(getattr(proto, _TEXT_FIELDS[kind]))
        elif kind == "plotly_chart":
            run.chart_titles.extend(_plotly_titles(proto.spec))
            if proto.id:
                run.charts.append(proto.id)
        elif kind == "empty":
            screen.pop(path, None)
        elif kind == "bidi_component":
            run.components[proto.component_name] = proto.id
        if hasattr(proto, "id") and hasattr(proto, "label") and proto.id:
            value, options, select = _widget_value(kind, proto)
            screen[path] = Widget(proto.id, kind, proto.label, options, value, select,
                                  in_sidebar=path[:1] == (1,),
                                  fragment_id=msg.delta.fragment_id)

    def _note_unexpected(self, msg: ForwardMsg) -> bool:
        kind = msg.WhichOneof("type")
        if kind == "delta":
            element = msg.delta.new_element
            kind = f"delta.{element.WhichOneof('type')}"
        self.unexpected.append(kind)
        return True

    def _pump(self, stop, deadline: float, record=None) -> ForwardMsg | None:
        """Read messages until ``stop(msg)`` (returns it) or the deadline (returns None)."""
        if self.ws is None:
            raise Disconnected("not connected")
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.ws.settimeout(left)
            try:
                opcode, data = self.ws.recv_data(control_frame=False)
            except websocket.WebSocketTimeoutException:
                return None
            except (OSError, websocket.WebSocketException) as error:
                self.ws = None
                raise Disconnected(f"connection lost: {error}") from error
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                self.ws = None
                raise Disconnected("server closed the websocket")
            if opcode != websocket.ABNF.OPCODE_BINARY:
                continue
            self.bytes_received += len(data)
            self._last_size = len(data)
            msg = ForwardMsg()
            msg.ParseFromString(data)
            if record is not None:
                record(msg)
            if stop(msg):
                return msg


def _plotly_titles(spec: str) -> list[str]:
    """The figure's title and axis titles (what a student reads on a chart)."""
    try:
        layout = json.loads(spec).get("layout", {})
    except ValueError:
        return []
    titles = []
    for key, value in layout.items():
        if key == "title" or key.startswith(("xaxis", "yaxis")):
            title = value.get("title") if key != "title" else value
            if isinstance(title, dict):
                title = title.get("text")
            if isinstance(title, str):
                titles.append(title)
    for annotation in layout.get("annotations", []) or []:
        if isinstance(annotation, dict) and isinstance(annotation.get("text"), str):
            titles.append(annotation["text"])
    return titles
