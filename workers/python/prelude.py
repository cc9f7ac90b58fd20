# The runner that executes user code in the Python worker. Loaded once as the module
# `_dataseer`; the worker calls `run(code, dataset_names)` through `callPromising`, so that
# `sql()` can block on the data worker with `run_sync` (JS promise integration).
import ast
import datetime
import inspect
import json
import linecache
import math
import re
import sys
import traceback
from collections.abc import Mapping

USER_FILE = "<python>"
MAX_TABLE_ROWS = 1000

# Set by the worker: an async JS function (sql) -> {columns, types, values, rowCount, truncated}.
_query = None


class Row(tuple):
    """One row of a Table: a tuple that can also be indexed by column name."""

    _index: dict

    def __new__(cls, values, index):
        row = super().__new__(cls, values)
        row._index = index
        return row

    def __getitem__(self, key):
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)

    def keys(self):
        return list(self._index)

    def get(self, key, default=None):
        return self[key] if key in self._index else default

    def asdict(self):
        return {name: tuple.__getitem__(self, i) for name, i in self._index.items()}


class Table:
    """A light column-oriented table, returned by sql() when pandas is not importable.

    t.columns -> column names; t.rows -> list of rows; len(t); `for row in t` (row[0] or
    row["name"]); t["name"] -> that column's values as a list.
    """

    def __init__(self, columns, data):
        self.columns = list(columns)
        self._data = [list(col) for col in data]
        self._index = {name: i for i, name in enumerate(self.columns)}

    def __len__(self):
        return len(self._data[0]) if self._data else 0

    @property
    def rows(self):
        return [Row(values, self._index) for values in zip(*self._data)]

    def __iter__(self):
        for values in zip(*self._data):
            yield Row(values, self._index)

    def __getitem__(self, key):
        if isinstance(key, str):
            return list(self._data[self._index[key]])
        return self.rows[key]

    def column(self, name):
        return self[name]

    def to_dict(self):
        return {name: list(self._data[i]) for name, i in self._index.items()}

    def head(self, n=5):
        return Table(self.columns, [col[:n] for col in self._data])

    def __repr__(self):
        shown = list(zip(*[col[:10] for col in self._data]))
        width = [max([len(str(c))] + [len(repr(r[i])) for r in shown]) for i, c in enumerate(self.columns)]
        lines = ["  ".join(str(c).ljust(w) for c, w in zip(self.columns, width))]
        lines += ["  ".join(repr(v).ljust(w) for v, w in zip(r, width)) for r in shown]
        if len(self) > 10:
            lines.append(f"... ({len(self)} rows)")
        return "\n".join(lines)


def _pandas():
    return sys.modules.get("pandas")


def _column(values):
    py = values.to_py() if hasattr(values, "to_py") else values
    if isinstance(py, memoryview):
        return py.tolist()
    return list(py)


def sql(query):
    """Runs a query in DuckDB and returns a pandas DataFrame (when pandas is loaded) or a Table."""
    if _query is None:
        raise RuntimeError("No data engine is connected to Python.")
    from pyodide.ffi import can_run_sync, run_sync

    if not can_run_sync():
        raise RuntimeError("sql() needs JavaScript promise integration, which this browser lacks.")
    res = run_sync(_query(str(query)))
    if res.error:
        raise RuntimeError(f"SQL error: {res.error}")
    names = list(res.columns)
    types = list(res.types)
    data = [_typed_column(_column(v), t) for v, t in zip(res.values, types)]
    if res.truncated:
        print(f"sql(): result truncated to {res.rowCount} rows", file=sys.stderr)
    pd = _pandas()
    if pd is None:
        return Table(names, data)
    frame = pd.DataFrame({i: col for i, col in enumerate(data)})
    for i, t in enumerate(types):
        if _is_temporal(t):
            frame[i] = pd.to_datetime(frame[i])
    frame.columns = names
    return frame


def _is_temporal(duckdb_type):
    return duckdb_type == "DATE" or duckdb_type.startswith("TIMESTAMP")


def _typed_column(values, duckdb_type):
    """DATE and TIMESTAMP values (ISO text from the engine) as datetime.date / datetime.datetime:
    naive for naive columns, UTC-aware for TIMESTAMP WITH TIME ZONE."""
    if duckdb_type == "DATE":
        return [None if v is None else datetime.date.fromisoformat(str(v)[:10]) for v in values]
    if not duckdb_type.startswith("TIMESTAMP"):
        return values
    aware = "TIME ZONE" in duckdb_type or duckdb_type == "TIMESTAMPTZ"
    out = []
    for v in values:
        if v is None:
            out.append(None)
            continue
        d = datetime.datetime.fromisoformat(str(v).replace("Z", "+00:00"))
        out.append(d if aware else d.replace(tzinfo=None))
    return out


class _NoSingleDataset:
    """`df` when there is not exactly one dataset: any use explains what to write instead."""

    def __init__(self, names):
        self._names = list(names)

    def _explain(self, *_args, **_kwargs):
        if not self._names:
            raise NameError("df is the loaded dataset, and no dataset is loaded yet: add one first.")
        listed = ", ".join(self._names)
        first = self._names[0]
        raise NameError(
            f"df is defined only when one dataset is loaded; there are {len(self._names)}: {listed}. "
            f"Use datasets[{first!r}] (or sql('SELECT ... FROM {first}'))."
        )

    __getattr__ = _explain
    __getitem__ = _explain
    __iter__ = _explain
    __len__ = _explain
    __call__ = _explain

    def __repr__(self):
        try:
            self._explain()
        except NameError as e:
            return f"<{e}>"
        return "<df>"


def _quote_ident(name):
    return '"' + name.replace('"', '""') + '"'


class Datasets(Mapping):
    """The loaded datasets by table name; each is fetched from DuckDB on first access."""

    def __init__(self, names):
        self._names = list(names)
        self._cache = {}

    def __getitem__(self, name):
        if name not in self._names:
            raise KeyError(f"No dataset named {name!r}. Loaded: {', '.join(self._names) or 'none'}")
        if name not in self._cache:
            self._cache[name] = sql(f"SELECT * FROM {_quote_ident(name)}")
        return self._cache[name]

    def __iter__(self):
        return iter(self._names)

    def __len__(self):
        return len(self._names)

    def __repr__(self):
        return f"datasets({self._names!r})"


# ---- results -----------------------------------------------------------------------------


def _json_safe(v):
    """Plain JSON of v, or raises TypeError/ValueError."""
    return json.loads(json.dumps(v, allow_nan=False, default=_json_default))


def _json_default(o):
    if hasattr(o, "isoformat"):
        return o.isoformat()
    if hasattr(o, "item"):  # numpy scalars
        return o.item()
    if hasattr(o, "tolist"):
        return o.tolist()
    raise TypeError(f"{type(o).__name__} is not JSON serializable")


def _cell(v):
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    try:
        return _json_safe(v)
    except (TypeError, ValueError):
        return repr(v)


def _table(columns, rows, row_count):
    shown = [[_cell(v) for v in r] for r in rows[:MAX_TABLE_ROWS]]
    return {
        "kind": "table",
        "columns": [str(c) for c in columns],
        "rows": shown,
        "rowCount": row_count,
        "truncated": row_count > len(shown),
    }


def _is_frame(v):
    pd = _pandas()
    return pd is not None and isinstance(v, (pd.DataFrame, pd.Series))


def _frame_table(v):
    pd = _pandas()
    if isinstance(v, pd.Series):
        v = v.to_frame()
    head = v.head(MAX_TABLE_ROWS)
    split = json.loads(head.to_json(orient="split", date_format="iso", default_handler=str))
    index_is_range = isinstance(v.index, pd.RangeIndex)
    columns = [str(c) for c in split["columns"]]
    rows = split["data"]
    if not index_is_range:
        columns = [str(v.index.name or "")] + columns
        rows = [[_cell(i)] + r for i, r in zip(split["index"], rows)]
    return _table(columns, rows, len(v))


def _records_table(v):
    """A list of dicts with the same keys, or a dict of equal-length lists, as a table."""
    if isinstance(v, list) and v and all(isinstance(r, dict) for r in v):
        keys = list(v[0].keys())
        if all(list(r.keys()) == keys for r in v):
            return _table(keys, [[r[k] for k in keys] for r in v], len(v))
    if isinstance(v, dict) and v and all(isinstance(c, (list, tuple)) for c in v.values()):
        lengths = {len(c) for c in v.values()}
        if len(lengths) == 1:
            return _table(list(v.keys()), [list(r) for r in zip(*v.values())], lengths.pop())
    return None


def describe_result(v):
    """The UI form of `result`: a table, a scalar, JSON, or a repr."""
    if isinstance(v, bool) or isinstance(v, (int, str)):
        if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2**53:
            return {"kind": "scalar", "value": str(v), "repr": repr(v)}
        return {"kind": "scalar", "value": v, "repr": repr(v)}
    if isinstance(v, float):
        if math.isfinite(v):
            return {"kind": "scalar", "value": v, "repr": repr(v)}
        return {"kind": "repr", "text": repr(v)}
    if isinstance(v, Table):
        return _table(v.columns, [list(r) for r in v.rows], len(v))
    if _is_frame(v):
        return _frame_table(v)
    if isinstance(v, (dict, list, tuple)):
        try:
            table = _records_table(v if not isinstance(v, tuple) else list(v))
            if table is not None:
                return table
            return {"kind": "json", "value": _json_safe(v)}
        except (TypeError, ValueError):
            pass
    if hasattr(v, "item") and hasattr(v, "dtype") and getattr(v, "ndim", None) == 0:
        return describe_result(v.item())
    return {"kind": "repr", "text": repr(v)[:20000]}


def describe_figure(fig):
    """A Plotly figure (or a dict in its JSON form) as a JSON string; raises on other types."""
    if hasattr(fig, "to_json") and hasattr(fig, "to_plotly_json"):
        return fig.to_json()
    if isinstance(fig, dict):
        return json.dumps(fig, allow_nan=False, default=_json_default)
    raise TypeError(f"fig must be a plotly figure or a dict in Plotly's JSON form, not {type(fig).__name__}")


# ---- running ----------------------------------------------------------------------------

_DF_NAME = re.compile(r"\bdf\b")


# A session is one namespace that lives across runs, as a Jupyter kernel's does: the console's,
# or one per conversation for the agent's run_python. Runs without a session start empty.
MAX_SESSIONS = 16
_sessions = {}
# What this module put into each session's namespace, so a user's own `df = ...` is never
# overwritten by the next run, while ours are refreshed (datasets come and go between runs).
_ours = {}


def _session(session):
    """The namespace for a session (least recently used ones beyond MAX_SESSIONS are dropped),
    and whether it is new: a first run, or its state was lost (restart, or dropped)."""
    if session is None:
        return {"__name__": "__main__", "__builtins__": __builtins__}, True, {}
    ns = _sessions.pop(session, None)
    fresh = ns is None
    if fresh:
        ns = {"__name__": "__main__", "__builtins__": __builtins__}
        _ours[session] = {}
    _sessions[session] = ns
    while len(_sessions) > MAX_SESSIONS:
        dropped = next(iter(_sessions))
        del _sessions[dropped]
        _ours.pop(dropped, None)
    return ns, fresh, _ours[session]


def _provide(ns, ours, name, make):
    """Binds `name` to make() unless the user has bound it to something of their own."""
    if name not in ns or ns[name] is ours.get(name):
        value = make()
        ns[name] = value
        ours[name] = value


def _namespace(code, dataset_names, session=None):
    ns, fresh, ours = _session(session)
    # A stale result or figure from an earlier run must never come back as this run's.
    ns.pop("result", None)
    ns.pop("fig", None)
    ds = Datasets(dataset_names)
    _provide(ns, ours, "sql", lambda: sql)
    _provide(ns, ours, "Table", lambda: Table)
    _provide(ns, ours, "datasets", lambda: ds)
    # `df` is only materialised when the code mentions it: big tables stay in DuckDB otherwise.
    if _DF_NAME.search(code):
        _provide(ns, ours, "df", lambda: ds[dataset_names[0]] if len(dataset_names) == 1 else _NoSingleDataset(dataset_names))
    return ns, fresh


def _execute(compiled, ns):
    """Runs compiled code; code with a top-level `await` (allowed, as in Jupyter) is a
    coroutine, driven to its end here."""
    if compiled.co_flags & inspect.CO_COROUTINE:
        from pyodide.ffi import run_sync

        run_sync(eval(compiled, ns))
    else:
        exec(compiled, ns)


def run(code, dataset_names, session=None):
    """Runs user code (in a session's namespace when one is named); returns a JSON string
    describing the outcome (never raises)."""
    names = [str(n) for n in (dataset_names.to_py() if hasattr(dataset_names, "to_py") else dataset_names)]
    session = None if session is None else str(session)
    out = {"ok": True, "warnings": []}
    # Tracebacks show the user's source lines only if linecache knows the "file".
    linecache.cache[USER_FILE] = (len(code), None, code.splitlines(True), USER_FILE)
    try:
        compiled = compile(code, USER_FILE, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except SyntaxError as e:
        return json.dumps({
            "ok": False,
            "error": {"type": type(e).__name__, "message": str(e), "traceback": "".join(traceback.format_exception_only(e))},
        })
    fresh = True
    try:
        ns, fresh = _namespace(code, names, session)
        _execute(compiled, ns)
    except BaseException as e:  # noqa: BLE001 - KeyboardInterrupt and MemoryError must come back too
        sys.stdout.flush()
        sys.stderr.flush()
        kind, message = type(e).__name__, str(e)
        tb = "".join(traceback.format_exception(e))
        if isinstance(e, OverflowError) and "index-sized integer" in message:
            # 64-bit Python says MemoryError for "a" * 10**10; in 32-bit wasm the size overflows
            # first. Same cause for the user: more memory than there is.
            kind = "MemoryError"
            message = f"cannot allocate that much memory (the size does not fit WebAssembly's 32-bit address space: {message})"
            tb = tb.rstrip("\n").rsplit("\n", 1)[0] + f"\nMemoryError: {message}\n"
        return json.dumps({"ok": False, "error": {"type": kind, "message": message, "traceback": tb}, "sessionFresh": fresh})
    out["sessionFresh"] = fresh
    if "result" in ns:
        try:
            out["result"] = describe_result(ns["result"])
        except Exception as e:  # noqa: BLE001
            out["result"] = {"kind": "repr", "text": f"<result could not be shown: {e}>"}
    if "fig" in ns and ns["fig"] is not None:
        try:
            out["figure"] = describe_figure(ns["fig"])
        except Exception as e:  # noqa: BLE001
            out["warnings"].append(str(e))
    sys.stdout.flush()
    sys.stderr.flush()
    return json.dumps(out)


def find_imports(code):
    from pyodide.code import find_imports as _find

    try:
        return json.dumps(_find(code))
    except SyntaxError:
        return "[]"


def importable(names):
    """Which of these top-level module names can be imported right now (no download)."""
    import importlib.util

    ok = []
    for n in names.to_py() if hasattr(names, "to_py") else names:
        try:
            if importlib.util.find_spec(n) is not None:
                ok.append(n)
        except (ImportError, ValueError):
            pass
    return json.dumps(ok)


# cffi's backend calls C functions and reads memory as ctypes does (with no audit events of its
# own), and Pyodide's package index offers it on demand.
_BLOCKED_MODULES = frozenset({"ctypes", "_ctypes", "pyodide_js", "cffi", "_cffi_backend"})
_BLOCKED_MESSAGE = "is not available in Dataseer's Python sandbox"


def _is_blocked(name):
    return isinstance(name, str) and name.split(".")[0] in _BLOCKED_MODULES


class _BlockedModules:
    """A meta path finder that refuses modules reaching the interpreter's own memory and the
    worker's JavaScript: ctypes can call any exported C function (emscripten_run_script among
    them), and pyodide_js hands out the Emscripten module. Code can take it off sys.meta_path:
    the audit hook below is the wall, this only gives the plain error early."""

    BLOCKED = _BLOCKED_MODULES

    def find_spec(self, name, path=None, target=None):
        if _is_blocked(name):
            raise ImportError(f"{name} {_BLOCKED_MESSAGE}")
        return None


def _audit(event, args):
    # Audit hooks cannot be removed from Python. Every import that is not in sys.modules raises
    # "import" (whatever sys.meta_path holds), and every ctypes operation that reads memory,
    # looks up or calls a C function raises a "ctypes.*" event — so a ctypes module obtained
    # some other way still cannot do anything.
    if event == "import" and args and _is_blocked(args[0]):
        raise ImportError(f"{args[0]} {_BLOCKED_MESSAGE}")
    if event.startswith("ctypes."):
        raise RuntimeError(f"ctypes {_BLOCKED_MESSAGE}")


def _guard_module_creation():
    """_imp.create_builtin / create_dynamic build a module from a spec with no import event;
    importlib calls them through the _imp module, so the guarded versions serve it too. _imp
    itself is refused, or a fresh _imp would hand back the unguarded functions."""
    import _imp

    for fname in ("create_builtin", "create_dynamic"):
        original = getattr(_imp, fname, None)
        if original is None:
            continue

        def guarded(spec, *args, _original=original):
            name = getattr(spec, "name", None)
            if _is_blocked(name) or name == "_imp":
                raise ImportError(f"{name} {_BLOCKED_MESSAGE}")
            return _original(spec, *args)

        setattr(_imp, fname, guarded)


def _block_modules():
    for name in list(sys.modules):
        if _is_blocked(name):
            del sys.modules[name]
    # The import hook's own table of JavaScript modules would hand pyodide_js out directly.
    from _pyodide._importhook import jsfinder

    if "pyodide_js" in getattr(jsfinder, "jsproxies", {}):
        jsfinder.unregister_js_module("pyodide_js")
    _guard_module_creation()
    sys.addaudithook(_audit)
    sys.meta_path.insert(0, _BlockedModules())
