"""Tasks on rxjs 7.8.2's TypeScript sources. Lines are the npm package's src/; every list was
checked by hand against the sources."""

from __future__ import annotations

from ._model import Task

P = "rxjs"
INT = "src/internal"
OBS, SUB = f"{INT}/Observable.ts", f"{INT}/Subscription.ts"

ARR_REMOVE_CALLS = [f"{SUB}:169", f"{SUB}:189", f"{INT}/operators/bufferCount.ts:98", f"{INT}/operators/windowTime.ts:122",
                    f"{INT}/operators/bufferTime.ts:96", f"{INT}/operators/windowToggle.ts:78", f"{INT}/operators/bufferToggle.ts:71",
                    f"{INT}/scheduler/AsyncAction.ts:141", f"{INT}/Subject.ts:132"]
# Subscription.add's call sites: every `x.add(` whose x is a Subscription (a Subscriber, an action),
# not a Set's add (operators/distinct.ts:71) nor fromEvent's local `add` function (fromEvent.ts:297)
ADD_CALLS = [f"{INT}/util/executeSchedule.ts:29", f"{INT}/util/executeSchedule.ts:35", f"{INT}/Subscriber.ts:54",
             f"{INT}/operators/share.ts:197", f"{INT}/operators/finalize.ts:72", f"{INT}/operators/windowTime.ts:133",
             f"{INT}/operators/groupBy.ts:225", f"{INT}/operators/debounceTime.ts:88", f"{INT}/operators/debounceTime.ts:105",
             f"{INT}/operators/subscribeOn.ts:65", f"{INT}/operators/bufferTime.ts:109", f"{INT}/operators/windowToggle.ts:93",
             f"{INT}/operators/bufferToggle.ts:77", f"{INT}/operators/connect.ts:107", f"{INT}/scheduler/VirtualTimeScheduler.ts:86",
             f"{INT}/testing/ColdObservable.ts:24", f"{INT}/testing/ColdObservable.ts:39", f"{INT}/testing/HotObservable.ts:29",
             f"{INT}/testing/HotObservable.ts:34", f"{INT}/observable/connectable.ts:57", f"{INT}/observable/dom/fetch.ts:131",
             f"{INT}/observable/dom/WebSocketSubject.ts:333", f"{INT}/observable/dom/WebSocketSubject.ts:377",
             f"{INT}/observable/ConnectableObservable.ts:71", f"{INT}/observable/onErrorResumeNext.ts:91",
             f"{INT}/observable/zip.ts:70", f"{OBS}:213"]
ARR_REMOVE_IMPORTS = [f"{SUB}:4", f"{INT}/operators/bufferCount.ts:4", f"{INT}/operators/windowTime.ts:8", f"{INT}/operators/bufferTime.ts:5",
                      f"{INT}/operators/windowToggle.ts:9", f"{INT}/operators/bufferToggle.ts:7", f"{INT}/scheduler/AsyncAction.ts:6",
                      f"{INT}/Subject.ts:7"]


def _t(id: str, kind: str, question: str, args: dict, truth: object, trivial: bool = False) -> Task:
    return Task(f"rxjs/{id}", P, kind, question, args, truth, trivial)


TASKS = [
    _t("def-_subscribe", "definition", "where is the _subscribe called on line 222 of Observable.ts defined?",
       {"name": "_subscribe", "file": OBS, "line": 222}, [f"{OBS}:324"]),  # Observable's own, not a subclass's
    _t("def-arrRemove", "definition", "where is arrRemove (Subject.ts:132) defined?",
       {"name": "arrRemove", "file": f"{INT}/Subject.ts", "line": 132}, [f"{INT}/util/arrRemove.ts:6"], trivial=True),
    _t("def-isFunction", "definition", "where is isFunction (Observable.ts:482) defined?",
       {"name": "isFunction", "file": OBS, "line": 482}, [f"{INT}/util/isFunction.ts:5"], trivial=True),
    _t("callers-arrRemove", "callers", "which lines call arrRemove (util/arrRemove.ts:6)?",
       {"name": "arrRemove", "file": f"{INT}/util/arrRemove.ts", "line": 6}, ARR_REMOVE_CALLS, trivial=True),
    _t("callers-add", "callers", "which lines call Subscription.add (Subscription.ts:116)?",
       {"name": "add", "file": SUB, "line": 116}, ADD_CALLS),
    _t("impl-_subscribe", "implementations", "which methods implement Observable._subscribe (Observable.ts:324)?",
       {"name": "_subscribe", "base": "Observable", "file": OBS, "line": 324},
       # Observable's own, and the overrides in its subclasses (Subject's, AnonymousSubject's, and theirs)
       [f"{OBS}:324", f"{INT}/Subject.ts:116", f"{INT}/Subject.ts:182", f"{INT}/BehaviorSubject.ts:19",
        f"{INT}/ReplaySubject.ts:69", f"{INT}/testing/HotObservable.ts:25", f"{INT}/observable/dom/WebSocketSubject.ts:368",
        f"{INT}/observable/ConnectableObservable.ts:43"]),
    _t("impl-schedule", "implementations", "which methods implement SchedulerAction.schedule (types.ts:234)?",
       {"name": "schedule", "base": "SchedulerAction", "base_is_interface": True, "file": f"{INT}/types.ts", "line": 234},
       # the actions' classes implement the interface by shape: Action, AsyncAction, QueueAction, VirtualAction
       [f"{INT}/scheduler/Action.ts:31", f"{INT}/scheduler/AsyncAction.ts:20", f"{INT}/scheduler/QueueAction.ts:12",
        f"{INT}/scheduler/VirtualTimeScheduler.ts:75"]),
    _t("type-subscriber", "type", "what is the type of subscriber on line 209 of Observable.ts?",
       {"name": "subscriber", "file": OBS, "line": 209},
       # isSubscriber's T is inferred from `value: any` as unknown; SafeSubscriber<T> is a Subscriber<unknown>
       ["Subscriber<unknown>"]),
    _t("rename-arrRemove", "rename", "rename arrRemove to removeItem everywhere",
       {"name": "arrRemove", "file": f"{INT}/util/arrRemove.ts", "line": 6, "new": "removeItem"},
       {"places": [f"{INT}/util/arrRemove.ts:6", *ARR_REMOVE_IMPORTS, *ARR_REMOVE_CALLS]}, trivial=True),
    _t("rename-subscriber", "rename", "rename Observable.subscribe's local subscriber to sink",
       {"name": "subscriber", "file": OBS, "line": 209, "new": "sink"},
       {"places": [f"{OBS}:{n}" for n in (209, 213, 217, 222, 225, 229)]}),
    _t("find-typeerror-literal", "find_pattern", "every new TypeError(...) whose argument is a quoted string",
       {"pattern": "new TypeError('$M')", "regex": r"new TypeError\(\s*['\"]"},
       [f"{INT}/util/lift.ts:30", f"{INT}/operators/timeoutWith.ts:102", f"{INT}/operators/timeoutWith.ts:107",
        f"{INT}/operators/timeout.ts:320", f"{INT}/Notification.ts:235", f"{INT}/ajax/ajax.ts:313", f"{INT}/ajax/ajax.ts:324",
        f"{INT}/ajax/ajax.ts:587", f"{INT}/observable/fromEvent.ts:288", f"{INT}/observable/innerFrom.ts:55"]),
    _t("find-arrRemove-this", "find_pattern", "every arrRemove(...) call whose second argument is this",
       {"pattern": "arrRemove($A, this)", "regex": r"arrRemove\(.*, this\)"},
       [f"{INT}/scheduler/AsyncAction.ts:141"], trivial=True),
    _t("replace-arrRemove-this", "replace", "rewrite arrRemove(X, this) as arrRemove(X, this as any)",
       {"pattern": "arrRemove($A, this)", "rewrite": "arrRemove($A, this as any)",
        "regex": r"arrRemove\(([^,]+), this\)", "sed": r"arrRemove(\1, this as any)"},
       {"places": [f"{INT}/scheduler/AsyncAction.ts:141"]}, trivial=True),
    _t("replace-isFunction", "replace", "rewrite isFunction(X) as (typeof X === 'function') in every file",
       {"pattern": "isFunction($X)", "rewrite": "(typeof $X === 'function')",
        "regex": r"isFunction\(([^()]*)\)", "sed": r"(typeof \1 === 'function')"},
       # every call but the definition's own line; util/args.ts:10 and Notification.ts:145 have parentheses inside
       {"places": [f"{INT}/{f}" for f in (
           "util/isInteropObservable.ts:7", "util/isPromise.ts:8", "util/isScheduler.ts:5", "util/isIterable.ts:6",
           "util/isObservable.ts:12", "util/lift.ts:10", "util/isAsyncIterable.ts:4", "util/isReadableStreamLike.ts:22",
           "util/args.ts:10", "Subscription.ts:67", "Subscription.ts:202", "Subscription.ts:207", "scheduled/scheduleIterable.ts:58",
           "Subscriber.ts:196", "operators/multicast.ts:86", "operators/multicast.ts:88", "operators/publishReplay.ts:89",
           "operators/publishReplay.ts:92", "operators/mergeMap.ts:86", "operators/tap.ts:176", "operators/concatMapTo.ts:78",
           "operators/max.ts:53", "operators/min.ts:53", "operators/concatMap.ts:82", "operators/mergeMapTo.ts:67",
           "operators/switchMapTo.ts:63", "Notification.ts:145", "observable/throwError.ts:122", "observable/innerFrom.ts:51",
           "observable/fromEvent.ts:246", "observable/fromEvent.ts:320", "observable/fromEvent.ts:329",
           "observable/fromEvent.ts:338", "observable/fromEventPattern.ts:150", "Observable.ts:482")]}),
    _t("diag-arrRemove-arg", "new_diagnostics", "give arrRemove a third parameter: which lines now have new errors?",
       {"file": f"{INT}/util/arrRemove.ts", "line": 6, "old": "item: T)", "new": "item: T, at: number)"},
       ARR_REMOVE_CALLS),
    _t("diag-subscriber-number", "new_diagnostics", "declare Observable.subscribe's subscriber a number: which lines break?",
       {"file": OBS, "line": 209, "old": "const subscriber =", "new": "const subscriber: number ="},
       [f"{OBS}:{n}" for n in (209, 213, 217, 222, 225, 229)]),
]
