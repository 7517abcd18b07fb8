"""Type stubs of the diffable package."""
import builtins
from array import array
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Literal, TypeAlias

Identifier: TypeAlias = Hashable
#: numpy.ndarray when numpy is installed, else array.array('i').
IntArray: TypeAlias = Any
Path: TypeAlias = tuple[int, int]
Step: TypeAlias = tuple[str, int] | tuple[str, int, int] | tuple[str, Path] | tuple[str, Path, Path]

MAX_COUNT: int
KEPT_BUFFER_BYTES: int
__version__: str

JSONValue: TypeAlias = Any
JSONPatchOperation: TypeAlias = dict[str, Any]

class InconsistentHashWarning(RuntimeWarning): ...

class DuplicateError(ValueError):
    snapshot: Literal["old", "new"]
    kind: Literal["item", "section"]
    identifiers: list[Any]
    positions: list[list[Any]]

class UnknownIdentifierError(ValueError):
    snapshot: Literal["new"]
    # builtins.list below: in this class body, `list` is the attribute declared next.
    list: Literal["reload_items", "reconfigure_items", "reload_sections"]
    identifiers: builtins.list[Any]
    positions: builtins.list[builtins.list[builtins.list[int]]]

class Diff:
    deletes: IntArray
    inserts: IntArray
    move_from: IntArray
    move_to: IntArray
    old_to_new: IntArray
    new_to_old: IntArray
    matched: int
    core_seconds: float
    @property
    def moves(self) -> Any: ...
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def steps(self) -> list[tuple[Literal["delete", "insert"], int] | tuple[Literal["move"], int, int]]: ...
    def apply(self, old: Sequence[Any]) -> list[Any]: ...

class Batch:
    delete_sections: list[int]
    insert_sections: list[int]
    move_sections: list[tuple[int, int]]
    reload_sections: list[int]
    delete_items: list[Path]
    insert_items: list[Path]
    move_items: list[tuple[Path, Path]]
    reload_items: list[Path]
    reconfigure_items: list[Path]
    @property
    def is_refresh(self) -> bool: ...

class SectionsDiff:
    batches: list[Batch]
    old_item_to_new: array[int]
    new_item_to_old: array[int]
    old_section_to_new: array[int]
    new_section_to_old: array[int]
    core_seconds: float
    def steps(self) -> list[Step]: ...
    def apply(self, old: Snapshot) -> list[tuple[Any, list[Any]]]: ...

Snapshot: TypeAlias = Iterable[tuple[Identifier, Iterable[Identifier]]]

def key(identifier: str | bytes | int) -> int: ...
def json_patch(old: JSONValue, new: JSONValue, *, key: Callable[[dict[str, Any]], Identifier] | str | None = None,
               path: str = "") -> list[JSONPatchOperation]: ...
def diff(old: Iterable[Any], new: Iterable[Any], *, key: Callable[[Any], Identifier] | None = None) -> Diff: ...
def diff_sections(old: Snapshot, new: Snapshot, *, reload_items: Iterable[Identifier] = (),
                  reconfigure_items: Iterable[Identifier] = (), reload_sections: Iterable[Identifier] = ()) -> SectionsDiff: ...

class Differ:
    def __init__(self) -> None: ...
    def diff(self, old: Iterable[Any], new: Iterable[Any], *, key: Callable[[Any], Identifier] | None = None) -> Diff: ...
    def diff_sections(self, old: Snapshot, new: Snapshot, *, reload_items: Iterable[Identifier] = (),
                      reconfigure_items: Iterable[Identifier] = (), reload_sections: Iterable[Identifier] = ()) -> SectionsDiff: ...
    def reserve(self, old_count: int, new_count: int) -> None: ...
    def shrink(self) -> None: ...
    @property
    def allocation_count(self) -> int: ...
    @property
    def memory(self) -> int: ...
