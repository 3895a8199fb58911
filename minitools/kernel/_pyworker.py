"""The Python kernel worker: a child process that runs cells for the host.

Run as ``python _pyworker.py MINITOOLS_PARENT FD_IN FD_OUT``. It may run on another
interpreter than the host (the workspace's `.venv/bin/python`), so it imports nothing of
minitools except `minitools.protocol` (stdlib only), loaded without running
`minitools/__init__.py` and then dropped from `sys.modules` so a user's own `import
minitools` is not shadowed.

The channel is the framed protocol on two private file descriptors; the user's stdout and
stderr are captured by replacing `sys.stdout`/`sys.stderr` and travel as ordered output
messages, so user output never touches the channel's framing (docs/architecture.md, "Kernel").

Messages, host -> worker: ``execute {id, code, count}``, ``tool_result {id, ok, text, data,
images}``. Worker -> host: ``ready``, ``output {items: [[stream|"display", payload]...]}``,
``tool_call {id, name, args}``, ``result {id, status, value, error}``.
"""

from __future__ import annotations
import __future__

import ast
import base64
import builtins
import code
import contextlib
import functools
import io
import linecache
import operator
import os
import signal
import sys
import threading
import time
import tokenize
import traceback
import types
import warnings
from typing import Any

_WORKER_FILE = os.path.abspath(__file__)
_CELL_PREFIX = "<cell "
_FLUSH_EVERY = 0.02  # seconds: output reaches the host this fast (the host's budget sees it)
# The host refuses a frame over 64 MiB and kills the kernel: nothing larger is sent, and text
# goes in pieces small enough for any mix of characters (at most 4 UTF-8 bytes each)
_MAX_FRAME = 60 << 20
_TEXT_PIECE = 1 << 20


def _load_protocol(parent: str) -> tuple[type, object, object]:
    """Import `minitools.protocol` from `parent` without importing the rest of minitools."""
    saved = {n: m for n, m in sys.modules.items() if n == "minitools" or n.startswith("minitools.")}
    pkg = types.ModuleType("minitools")
    pkg.__path__ = [os.path.join(parent, "minitools")]
    sys.modules["minitools"] = pkg
    try:
        from minitools.protocol import NEED_DATA, Framer, encode_message
    finally:
        for name in [n for n in sys.modules if n == "minitools" or n.startswith("minitools.")]:
            del sys.modules[name]
        sys.modules.update(saved)
    return Framer, encode_message, NEED_DATA


_MAX_FRAMES = 1000  # frames of a traceback formatted, the innermost (the default recursion limit)
_RESERVE = 32 << 20  # bytes: a traceback thousands of frames deep, formatted and sent


class _State:
    """What the SIGINT handler needs to know: is user code running, is a frame being sent."""

    running = False
    in_protocol = 0
    pending_interrupt = False


def _on_sigint(signum: int, frame: object) -> None:
    # Interrupt user code only: never a half-written frame, never the idle loop.
    if _State.running and not _State.in_protocol:
        raise KeyboardInterrupt
    if _State.running:
        _State.pending_interrupt = True


class Channel:
    """Framed JSON messages on two file descriptors."""

    def __init__(self, fd_in: int, fd_out: int, framer_cls: type, encode: object, need_data: object) -> None:
        self._in = fd_in
        self._out = fd_out
        self._framer = framer_cls("host")
        self._encode = encode
        self._need = need_data
        self._lock = threading.Lock()

    def send(self, message: dict) -> None:
        """Send `message`; TypeError when it is not JSON, ValueError when it is larger than the
        host takes (the cell sees either, and the kernel lives on)."""
        try:
            data = self._encode(message)  # type: ignore[operator]
        except Exception as exc:  # noqa: BLE001 - the protocol's LocalProtocolError, loaded by path
            raise TypeError(f"not JSON ({exc})") from None
        if len(data) > _MAX_FRAME:
            raise ValueError(f"{len(data):,} bytes, over the {_MAX_FRAME:,} one message to the Run may hold")
        _State.in_protocol += 1
        try:
            with self._lock:
                view = memoryview(data)
                while view:
                    n = os.write(self._out, view)
                    view = view[n:]
        finally:
            _State.in_protocol -= 1
        if _State.pending_interrupt and not _State.in_protocol and _State.running and threading.current_thread() is threading.main_thread():
            _State.pending_interrupt = False
            raise KeyboardInterrupt

    def receive(self) -> dict | None:
        """The next message, or None at end of input."""
        while True:
            message = self._framer.next_message()
            if isinstance(message, dict):
                return message
            if message is not self._need:
                return None  # CLOSED: the host is gone
            data = os.read(self._in, 1 << 16)
            self._framer.receive_data(data)
            if not data:
                message = self._framer.next_message()
                return message if isinstance(message, dict) else None


class Output:
    """Ordered stdout/stderr/display items, sent in batches (at least every _FLUSH_EVERY s)."""

    def __init__(self, channel: Channel) -> None:
        self._channel = channel
        self._items: list[list] = []
        self._size = 0
        self._last = 0.0
        self._lock = threading.RLock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def write(self, stream: str, text: str) -> None:
        while len(text) > _TEXT_PIECE:  # one print of 100 MB is sent as pieces, not one frame
            self.write(stream, text[:_TEXT_PIECE])
            text = text[_TEXT_PIECE:]
        if not text:
            return
        with self._lock:
            if self._items and self._items[-1][0] == stream:
                self._items[-1][1] += text
            else:
                self._items.append([stream, text])
            self._size += len(text)
            due = self._size > 1 << 16 or time.monotonic() - self._last >= _FLUSH_EVERY
        if due:
            self.flush()
        else:
            self._ensure_flusher()

    def begin(self) -> None:
        self._last = 0.0

    def display(self, data: dict, metadata: dict | None = None) -> None:
        with self._lock:
            self.flush()  # the text before it goes whatever becomes of the display
            self._items.append(["display", {"data": data, "metadata": metadata or {}}])
            try:
                self.flush()
            except (TypeError, ValueError) as exc:
                self._items.clear()
                raise type(exc)(f"display: the output is {exc}; show less (a smaller image, a slice of the data)") from None

    def flush(self) -> None:
        with self._lock:
            items, self._items, self._size = self._items, [], 0
            if items:
                # only a real send starts the batching window: a cell's first write goes out at once
                self._last = time.monotonic()
                self._channel.send({"type": "output", "items": items})

    def _ensure_flusher(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run_flusher, name="minitools-output", daemon=True)
            self._thread.start()
        self._wake.set()

    def _run_flusher(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            time.sleep(_FLUSH_EVERY)
            try:
                self.flush()
            except Exception:  # noqa: BLE001 - the channel is gone; the main thread will notice
                return


class CapturedStream(io.TextIOBase):
    """`sys.stdout` / `sys.stderr` inside the kernel: text goes to the ordered output."""

    def __init__(self, name: str, output: Output, fd: int) -> None:
        super().__init__()
        self.name = name
        self._output = output
        self._fd = fd

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        # C-level writers (faulthandler, subprocesses given sys.stdout) use the real
        # descriptor, which the host drains too.
        return self._fd

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self._output.write(self.name, text)
        return len(text)

    def flush(self) -> None:
        self._output.flush()


class ToolCallError(RuntimeError):
    """Raised in a cell when `tool(...)` returns a failed result; `.result` holds it."""

    def __init__(self, message: str, result: ToolCallResult) -> None:
        super().__init__(message)
        self.result = result


class ToolCallResult(str):
    """What `tool(...)` returns: the text the model would read (this string itself), with
    `.ok`, `.data` (the JSON data) and `.images` (a list of (mime, bytes)); `result["data"]`
    works too."""

    ok: bool
    data: object
    images: list

    def __new__(cls, text: str, ok: bool = True, data: object = None, images: list | None = None) -> ToolCallResult:
        self = super().__new__(cls, text)
        self.ok = ok
        self.data = data
        self.images = images or []
        return self

    @property
    def text(self) -> str:
        return str(self)

    def __getitem__(self, key: Any) -> Any:
        # result["data"], result["text"], ... like the wire shape; integers and slices stay str's
        if isinstance(key, str):
            if key in ("ok", "text", "data", "images"):
                return getattr(self, key)
            raise KeyError(f"{key!r}: a tool result has ok, text, data and images")
        return str.__getitem__(self, key)


# the compiler flags of every `from __future__` feature: a cell that imports one keeps it for the next
_FUTURE_FLAGS = functools.reduce(operator.or_, (getattr(__future__, name).compiler_flag for name in __future__.all_feature_names), 0)


class Kernel(code.InteractiveInterpreter):
    """The interpreter: runs a cell, returns the last expression like a notebook."""

    def __init__(self, channel: Channel, output: Output) -> None:
        super().__init__(locals={"__name__": "__main__", "__builtins__": builtins})
        self.channel = channel
        self.output = output
        self._error: dict | None = None
        self._loop: Any = None
        self._tool_ids = 0
        self._replies: dict[object, dict] = {}  # tool results read, by call id, until their caller takes them
        self._replies_ready = threading.Condition()
        self._reading = False  # a caller is reading the channel for everyone
        self._future_flags = 0  # `from __future__` features earlier cells turned on (as codeop keeps them)
        self._reserve: bytearray | None = None

    # The hooks code.InteractiveInterpreter routes its output through ------------------

    def write(self, data: str) -> None:
        self.output.write("stderr", data)

    def showsyntaxerror(self, filename: str | None = None, **kwargs: object) -> None:
        kind, value, _tb = sys.exc_info()
        text = "".join(traceback.format_exception_only(kind, value))
        self._error = {"ename": getattr(kind, "__name__", "SyntaxError"), "evalue": str(value), "traceback": text}

    def showtraceback(self) -> None:
        kind, value, _ = sys.exc_info()
        assert kind is not None and value is not None
        if type(value).__name__ == "MagicError":  # from _pymagics: no traceback
            self._error = {"ename": "UsageError", "evalue": str(value), "traceback": f"UsageError: {value}\n"}
            return
        try:
            shown = _user_traceback(value)
        except MemoryError:
            shown = f"{kind.__name__}: {value}\n(no traceback: the kernel had no memory left to format it)\n"
        self._error = {"ename": kind.__name__, "evalue": str(value), "traceback": shown}

    # Cells -----------------------------------------------------------------------------

    def execute(self, message: dict) -> None:
        count = message.get("count", 0)
        source = message["code"]
        filename = f"{_CELL_PREFIX}{count}>"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        self._error = None
        self.output.begin()
        if self._reserve is None:
            # memory held back while the cell runs, freed when it fails: a cell that reached the
            # kernel's bound (kernel_memory_mb) leaves no room to format and send its traceback
            with contextlib.suppress(MemoryError):
                self._reserve = bytearray(_RESERVE)
        value_bundle = None
        status = "ok"
        _State.running = True
        _State.pending_interrupt = False
        try:
            try:
                value = self.run_cell(source, filename)
                if value is not None:
                    self.locals["_"] = value
                    data, metadata = mimebundle(value)
                    value_bundle = {"data": data, "metadata": metadata}
            except SystemExit as exc:
                self._error = {
                    "ename": "SystemExit", "evalue": str(exc.code),
                    "traceback": f"SystemExit: {exc.code!r} (the cell stopped; the kernel keeps running)\n",
                }
            except BaseException:  # noqa: BLE001 - the cell's own error, shown as its traceback
                self._reserve = None  # a cell stopped at the memory bound: room to report it
                self.showtraceback()
            finally:
                _State.running = False
            self._emit_figures()
        except KeyboardInterrupt:
            # an interrupt that landed between the cell and its figures
            self._error = self._error or {"ename": "KeyboardInterrupt", "evalue": "", "traceback": "KeyboardInterrupt\n"}
        if self._error is not None:
            status = "interrupted" if self._error["ename"] == "KeyboardInterrupt" else "error"
        self.output.flush()
        self.channel.send({"type": "result", "id": message["id"], "status": status, "value": value_bundle, "error": self._error})

    def run_cell(self, source: str, filename: str) -> object:
        """Run `source`; return the value of a final expression statement (None if absent or
        suppressed with a trailing `;`). Top-level `await` works."""
        flags = getattr(ast, "PyCF_ALLOW_TOP_LEVEL_AWAIT", 0) | self._future_flags
        try:
            tree = ast.parse(source, filename, "exec")
            last: Any = None
            if tree.body and isinstance(tree.body[-1], ast.Expr) and not _ends_with_semicolon(source):
                last = tree.body.pop()
            body_code = compile(tree, filename, "exec", flags=flags, dont_inherit=True)
            self._future_flags |= body_code.co_flags & _FUTURE_FLAGS
            flags |= self._future_flags
            last_code = None
            if last is not None:
                last_code = compile(ast.Expression(last.value), filename, "eval", flags=flags, dont_inherit=True)
        except (SyntaxError, ValueError, OverflowError):
            self.showsyntaxerror(filename)
            return None
        self._run(body_code)
        return self._run(last_code) if last_code is not None else None

    def _run(self, compiled: types.CodeType) -> object:
        result = eval(compiled, self.locals)  # noqa: S307 - running the user's cell is the point
        if compiled.co_flags & 0x80:  # CO_COROUTINE: the cell used top-level await
            result = self._event_loop().run_until_complete(result)
        return result

    def _event_loop(self) -> Any:
        # One loop for the kernel's life, so tasks a cell starts keep running in later cells.
        if self._loop is None:
            import asyncio

            self._loop = asyncio.new_event_loop()
            asyncio.set_event_loop(self._loop)
        return self._loop

    def _emit_figures(self) -> None:
        """Every matplotlib figure the cell left open comes back as a PNG, then is closed."""
        plt = sys.modules.get("matplotlib.pyplot")
        if plt is None:
            return
        try:
            numbers = plt.get_fignums()
        except Exception:  # noqa: BLE001
            return
        for number in numbers:
            try:
                figure = plt.figure(number)
                buffer = io.BytesIO()
                figure.savefig(buffer, format="png", bbox_inches="tight")
                width, height = figure.get_size_inches() * figure.dpi
                self.output.display({
                    "image/png": base64.b64encode(buffer.getvalue()).decode("ascii"),
                    "text/plain": f"<Figure {int(width)}x{int(height)} with {len(figure.axes)} Axes>",
                })
            except Exception as exc:  # noqa: BLE001 - one bad figure must not hide the others
                self.output.write("stderr", f"could not render figure {number}: {exc!r}\n")
        plt.close("all")

    # What a cell can call ----------------------------------------------------------------

    def display(self, *objs: object, raw: bool = False, metadata: dict | None = None) -> None:
        """Show each object as rich output (a table, an image, markdown); `raw=True` takes
        a ready MIME bundle dict."""
        for obj in objs:
            if raw and isinstance(obj, dict):
                self.output.display(dict(obj), metadata)
            else:
                data, md = mimebundle(obj)
                self.output.display(data, metadata or md)

    def _reply_to(self, call_id: int) -> dict:
        """The host's reply to tool call `call_id`. Threads of a cell may call tools at once:
        one of them reads the channel at a time and files each reply under its id."""
        with self._replies_ready:
            while call_id not in self._replies:
                if self._reading:
                    self._replies_ready.wait()
                    continue
                self._reading = True
                self._replies_ready.release()
                try:
                    reply = self.channel.receive()
                finally:
                    self._replies_ready.acquire()
                    self._reading = False
                if reply is None:
                    os._exit(3)  # the host is gone; nobody is left to report to
                if reply.get("type") == "tool_result":
                    self._replies[reply.get("id")] = reply
                self._replies_ready.notify_all()
            return self._replies.pop(call_id)

    def tool(self, name: str, args: dict | None = None, **kwargs: object) -> ToolCallResult:
        """Call one of the Run's tools, as the model would (surface, approval and every
        wrapper apply). Returns the result's text (a str with `.data`, `.ok`, `.images`);
        raises ToolCallError when the call fails."""
        payload = dict(args or {}, **kwargs)
        self.output.flush()
        with self._replies_ready:
            self._tool_ids += 1
            call_id = self._tool_ids
        try:
            self.channel.send({"type": "tool_call", "id": call_id, "name": name, "args": payload})
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"tool({name!r}, ...): the arguments are {exc}; pass JSON values (dict, list, str, "
                            "number, bool, None), and less of them") from None
        _State.in_protocol += 1
        try:
            reply = self._reply_to(call_id)
        finally:
            _State.in_protocol -= 1
        images = [(i["mime"], base64.b64decode(i["base64"])) for i in reply.get("images") or []]
        result = ToolCallResult(reply.get("text", ""), bool(reply.get("ok")), reply.get("data"), images)
        if not result.ok:
            raise ToolCallError(f"tool {name!r} failed: {result}", result)
        return result


def _ends_with_semicolon(source: str) -> bool:
    try:
        last = None
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT, tokenize.ENDMARKER,
                                tokenize.INDENT, tokenize.DEDENT):
                last = tok
        return last is not None and last.type == tokenize.OP and last.string == ";"
    except (tokenize.TokenError, SyntaxError):
        return source.rstrip().endswith(";")


_MACHINERY = (_WORKER_FILE, *(os.path.join(os.path.dirname(_WORKER_FILE), f) for f in ("_pymagics.py", "_pydisplay.py")))


def _user_traceback(exc: BaseException) -> str:
    """The traceback from the first frame of the user's cell on, without the worker's own
    frames (nor the event loop's ahead of the cell): they are not the user's business. Of a
    traceback deeper than _MAX_FRAMES (recursion under a raised limit), the innermost are shown."""
    depth, tb = 0, exc.__traceback__
    while tb is not None and depth <= _MAX_FRAMES:
        depth, tb = depth + 1, tb.tb_next
    te = traceback.TracebackException(type(exc), exc, exc.__traceback__,
                                      limit=-_MAX_FRAMES if depth > _MAX_FRAMES else None)
    seen: set[int] = set()
    todo = [te]
    while todo:
        item = todo.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        frames = list(item.stack)
        first = next((i for i, f in enumerate(frames) if f.filename.startswith(_CELL_PREFIX)), 0)
        kept = [f for f in frames[first:] if f.filename not in _MACHINERY]
        item.stack = traceback.StackSummary.from_list(kept)
        todo.extend(x for x in (item.__cause__, item.__context__) if x is not None)
    return "".join(te.format())


def _no_input(prompt: object = "") -> str:
    raise EOFError(
        "input() cannot read anything here: the eval kernel's stdin is /dev/null and no person "
        "is typing into it. Put the value in the code, or ask the person with the ask_user tool."
    )


def _load_beside(file: str, name: str) -> types.ModuleType:
    """A module of the worker's own folder (the idioms, the rich display), loaded by path so
    that no package is needed."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, os.path.join(os.path.dirname(_WORKER_FILE), file))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_DISPLAY = _load_beside("_pydisplay.py", "_minitools_display")
mimebundle = _DISPLAY.mimebundle


def main(argv: list[str]) -> None:
    parent, fd_in, fd_out = argv[1], int(argv[2]), int(argv[3])
    framer_cls, encode, need = _load_protocol(parent)
    # Like a notebook: the working directory is importable, the worker's folder is not.
    if sys.path and os.path.abspath(sys.path[0] or ".") == os.path.dirname(_WORKER_FILE):
        sys.path[0] = ""
    channel = Channel(fd_in, fd_out, framer_cls, encode, need)
    output = Output(channel)
    kernel = Kernel(channel, output)
    builtins.__minitools__ = _load_beside("_pymagics.py", "_minitools_magics").Magics(kernel)  # type: ignore[attr-defined]
    builtins.display = kernel.display  # type: ignore[attr-defined]
    builtins.tool = kernel.tool  # type: ignore[attr-defined]
    builtins.input = _no_input
    sys.stdout = CapturedStream("stdout", output, 1)
    sys.stderr = CapturedStream("stderr", output, 2)
    warnings.filterwarnings("ignore", message=".*non-interactive.*cannot be shown")
    signal.signal(signal.SIGINT, _on_sigint)
    channel.send({"type": "ready", "pid": os.getpid(), "python": sys.executable, "version": sys.version.split()[0]})
    while True:
        try:
            message = channel.receive()
        except KeyboardInterrupt:
            continue
        if message is None or message.get("type") == "shutdown":
            break
        if message.get("type") == "execute":
            kernel.execute(message)
    output.flush()


if __name__ == "__main__":
    main(sys.argv)
