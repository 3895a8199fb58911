"""Tasks on rxjs 7.8.2's TypeScript sources. Lines are the npm package's src/; every list was
checked by hand against the sources."""

from __future__ import annotations

from ._model import Task

P = "rxjs"
I = "src/internal"
OBS, SUB = f"{I}/Observable.ts", f"{I}/Subscription.ts"

ARR_REMOVE_CALLS = [f"{SUB}:169", f"{SUB}:189", f"{I}/operators/bufferCount.ts:98", f"{I}/operators/windowTime.ts:122",
                    f"{I}/operators/bufferTime.ts:96", f"{I}/operators/windowToggle.ts:78", f"{I}/operators/bufferToggle.ts:71",
                    f"{I}/scheduler/AsyncAction.ts:141", f"{I}/Subject.ts:132"]
ARR_REMOVE_IMPORTS = [f"{SUB}:4", f"{I}/operators/bufferCount.ts:4", f"{I}/operators/windowTime.ts:8", f"{I}/operators/bufferTime.ts:5",
                      f"{I}/operators/windowToggle.ts:9", f"{I}/operators/bufferToggle.ts:7", f"{I}/scheduler/AsyncAction.ts:6",
                      f"{I}/Subject.ts:7"]


def _t(id: str, kind: str, question: str, args: dict, truth: object, trivial: bool = False) -> Task:
    return Task(f"rxjs/{id}", P, kind, question, args, truth, trivial)


TASKS = [
    _t("def-_subscribe", "definition", "where is the _subscribe called on line 222 of Observable.ts defined?",
       {"name": "_subscribe", "file": OBS, "line": 222}, [f"{OBS}:324"]),  # Observable's own, not a subclass's
    _t("def-arrRemove", "definition", "where is arrRemove (Subject.ts:132) defined?",
       {"name": "arrRemove", "file": f"{I}/Subject.ts", "line": 132}, [f"{I}/util/arrRemove.ts:6"], trivial=True),
    _t("def-isFunction", "definition", "where is isFunction (Observable.ts:482) defined?",
       {"name": "isFunction", "file": OBS, "line": 482}, [f"{I}/util/isFunction.ts:5"], trivial=True),
    _t("callers-arrRemove", "callers", "which lines call arrRemove (util/arrRemove.ts:6)?",
       {"name": "arrRemove", "file": f"{I}/util/arrRemove.ts", "line": 6}, ARR_REMOVE_CALLS, trivial=True),
    _t("impl-schedule", "implementations", "which methods implement SchedulerAction.schedule (types.ts:234)?",
       {"name": "schedule", "base": "SchedulerAction", "base_is_interface": True, "file": f"{I}/types.ts", "line": 234},
       # the actions' classes implement the interface by shape: Action, AsyncAction, QueueAction, VirtualAction
       [f"{I}/scheduler/Action.ts:31", f"{I}/scheduler/AsyncAction.ts:20", f"{I}/scheduler/QueueAction.ts:12",
        f"{I}/scheduler/VirtualTimeScheduler.ts:75"]),
    _t("type-subscriber", "type", "what is the type of subscriber on line 209 of Observable.ts?",
       {"name": "subscriber", "file": OBS, "line": 209},
       # isSubscriber's T is inferred from `value: any` as unknown; SafeSubscriber<T> is a Subscriber<unknown>
       ["Subscriber<unknown>"]),
    _t("rename-arrRemove", "rename", "rename arrRemove to removeItem everywhere",
       {"name": "arrRemove", "file": f"{I}/util/arrRemove.ts", "line": 6, "new": "removeItem"},
       {"places": [f"{I}/util/arrRemove.ts:6", *ARR_REMOVE_IMPORTS, *ARR_REMOVE_CALLS]}, trivial=True),
    _t("rename-subscriber", "rename", "rename Observable.subscribe's local subscriber to sink",
       {"name": "subscriber", "file": OBS, "line": 209, "new": "sink"},
       {"places": [f"{OBS}:{n}" for n in (209, 213, 217, 222, 225, 229)]}),
    _t("find-typeerror-literal", "find_pattern", "every new TypeError(...) whose argument is a quoted string",
       {"pattern": "new TypeError('$M')", "regex": r"new TypeError\(\s*['\"]"},
       [f"{I}/util/lift.ts:30", f"{I}/operators/timeoutWith.ts:102", f"{I}/operators/timeoutWith.ts:107",
        f"{I}/operators/timeout.ts:320", f"{I}/Notification.ts:235", f"{I}/ajax/ajax.ts:313", f"{I}/ajax/ajax.ts:324",
        f"{I}/ajax/ajax.ts:587", f"{I}/observable/fromEvent.ts:288", f"{I}/observable/innerFrom.ts:55"]),
    _t("find-arrRemove-this", "find_pattern", "every arrRemove(...) call whose second argument is this",
       {"pattern": "arrRemove($A, this)", "regex": r"arrRemove\(.*, this\)"},
       [f"{I}/scheduler/AsyncAction.ts:141"], trivial=True),
    _t("replace-arrRemove-this", "replace", "rewrite arrRemove(X, this) as arrRemove(X, this as any)",
       {"pattern": "arrRemove($A, this)", "rewrite": "arrRemove($A, this as any)",
        "regex": r"arrRemove\(([^,]+), this\)", "sed": r"arrRemove(\1, this as any)"},
       {"places": [f"{I}/scheduler/AsyncAction.ts:141"]}, trivial=True),
    _t("diag-arrRemove-arg", "new_diagnostics", "give arrRemove a third parameter: which lines now have new errors?",
       {"file": f"{I}/util/arrRemove.ts", "line": 6, "old": "item: T)", "new": "item: T, at: number)"},
       ARR_REMOVE_CALLS),
    _t("diag-subscriber-number", "new_diagnostics", "declare Observable.subscribe's subscriber a number: which lines break?",
       {"file": OBS, "line": 209, "old": "const subscriber =", "new": "const subscriber: number ="},
       [f"{OBS}:{n}" for n in (209, 213, 217, 222, 225, 229)]),
]
