# The C search (_native.c), built at install time by hatch_build.py when a C compiler is there.
API_VERSION: int

def reset(weights: list[int], quiescence: bool, ordering: bool, table: bool, table_bits: int) -> None: ...
def root(
    state: list[int],
    order: list[int],
    depth: int,
    alpha: int,
    beta: int,
    spread: int,
    clock: object,
    deadline: float | None,
    stop: object,
    node_limit: int | None,
    check_every: int,
) -> tuple[int, list[int], list[tuple[int, int]], list[int], int] | None: ...
def nodes() -> int: ...
def make(state: list[int], origin: int) -> list[int]: ...
def capture(state: list[int], origin: int) -> int: ...
def evaluate(state: list[int]) -> int: ...
