"""The class store in Redis: every replica reads and writes the same classes.

:class:`RedisStore` is a :class:`classroom.tally.ClassStore` under the rules of
``classroom/tally.py`` (its module docstring), with the same refusals, kept in a Redis
server the replicas share (``KPCA_CLASS_STORE=redis://host:port/db``, ``classroom/store.py``;
``deploy/replicas.py`` starts Debian's ``redis-server`` for two or more replicas). Any
replica then serves any student of any class, and a replica that dies loses nothing: the
next one reads the same votes.

* **Atomic.** Each call is one Lua script run by Redis (which runs one script at a time),
  so a vote is counted once under any interleaving of threads and replicas. The scripts are
  fixed text, registered once; what a student sends (code, token, question id, option)
  reaches them only as arguments, never as code. The passcode is compared here, in constant
  time, and never sent.
* **Time.** Replicas are different processes: the clock is the wall clock (``time.time``,
  injectable for tests), passed to every script, which checks the class's lifetime rules
  (idle, maximum age, the lecturer's grace) against it as the in-process store does. Redis
  also forgets a class's keys by itself one second after that deadline (their expiry is
  moved on with it), and a wrong-passcode record an hour after its last refusal window.
* **Keys.** Under ``kpca:`` (one Redis can serve other things): ``kpca:classes`` (code →
  when opened), and per class ``kpca:class:{CODE}`` (its lecturer, key, door, step,
  times), ``…:students`` (token → when joined), ``…:removed``, ``…:questions`` (question id
  → the order first answered) and ``…:q:<question id>`` (its round, closed, shown,
  revealed, and per round and token the packed vote ``2 × option + right``). A standalone
  Redis (the scripts reach a class's keys by name).
* **Never a hang.** A Redis that is down or slow answers within about four seconds with
  :class:`classroom.tally.StoreUnavailable`, which the page says as a sentence.
"""

from __future__ import annotations

import json
import logging
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import asdict

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from classroom.tally import (
    ALPHABET,
    CODE_LENGTH,
    FAILURES_FORGOTTEN_AFTER_S,
    MAX_ROUNDS,
    ClassStatus,
    Duration,
    Limits,
    Live,
    QuestionSummary,
    QuestionTally,
    _summarise,
    _Votes,
    check_lecturer,
    check_option,
    check_question,
    check_step,
    check_student,
    normalise_code,
    passcode_matches,
    question_tally,
    refusal,
    store_unavailable,
)

NAMESPACE = "kpca"
_LOG = logging.getLogger(__name__)
# A socket that does not answer in this many seconds is a store that is down; one retry
# (a new connection: Redis restarted) and no back-off, so a page waits about 4 s at most.
# Not less: a room of 300 phones following the lecturer at once keeps two cores busy for
# seconds, and at 1 s a phone now and then said "not answering" of a Redis that was up.
TIMEOUT_S = 2.0

# What every script shares: the class's keys, its lifetime, the door. ARGV[1] is the
# clock, ARGV[2] the limits (JSON), ARGV[3…] the call's own; KEYS[1] the namespace.
_PRELUDE = """
local NS = KEYS[1]
local now = tonumber(ARGV[1])
local L = cjson.decode(ARGV[2])
local CLASSES = NS .. ':classes'
local function ckey(code) return NS .. ':class:{' .. code .. '}' end
local function num(x) return string.format('%.17g', x) end

local function class_keys(code)
  local c = ckey(code)
  local keys = {c, c .. ':students', c .. ':removed', c .. ':questions'}
  for _, q in ipairs(redis.call('ZRANGE', c .. ':questions', 0, -1)) do
    keys[#keys + 1] = c .. ':q:' .. q
  end
  return keys
end

local function drop(code)
  redis.call('DEL', unpack(class_keys(code)))
  redis.call('ZREM', CLASSES, code)
end

-- Whether the class runs (after its lifetime rules, at the caller's clock); a class that
-- has ended is forgotten here.
local function alive(code)
  local t = redis.call('HMGET', ckey(code), 'opened', 'touched', 'seen')
  if not t[1] then drop(code) return false end
  local opened, touched, seen = tonumber(t[1]), tonumber(t[2]), tonumber(t[3])
  if now - touched > L.idle_expiry_s or now - opened > L.max_age_s
     or now - seen > L.lecturer_grace_s then
    drop(code) return false
  end
  return true
end

-- Redis forgets the class's keys one second after its deadline (moved on with it).
local function keep(code)
  local t = redis.call('HMGET', ckey(code), 'opened', 'touched', 'seen')
  local deadline = math.min(tonumber(t[2]) + L.idle_expiry_s, tonumber(t[1]) + L.max_age_s,
                            tonumber(t[3]) + L.lecturer_grace_s)
  local ms = math.max(1, math.ceil((deadline - now + 1) * 1000))
  for _, k in ipairs(class_keys(code)) do redis.call('PEXPIRE', k, ms) end
end

-- The class, if key is its lecturer's: the lecturer is seen alive now. nil, or a refusal.
local function owned(code, key)
  if not alive(code) then return {'unknown'} end
  if redis.call('HGET', ckey(code), 'key') ~= key then return {'not_lecturer'} end
  redis.call('HSET', ckey(code), 'seen', num(now))
  keep(code)
  return nil
end

local function seated(code, token)
  local c = ckey(code)
  if redis.call('ZSCORE', c .. ':students', token) then return nil end
  if redis.call('ZSCORE', c .. ':removed', token) then return {'removed'} end
  if redis.call('HGET', c, 'joining_open') == '0' then return {'door_closed'} end
  if redis.call('ZCARD', c .. ':students') >= L.max_students then return {'full'} end
  local rate = L.joins_per_minute / 60
  local a = redis.call('HMGET', c, 'allowance', 'allowance_at')
  local allowance = math.min(L.join_burst, tonumber(a[1]) + (now - tonumber(a[2])) * rate)
  if allowance < 1 then
    redis.call('HSET', c, 'allowance', num(allowance), 'allowance_at', num(now))
    local wait = 60
    if rate > 0 then wait = math.ceil((1 - allowance) / rate) end
    return {'too_fast', wait}
  end
  redis.call('HSET', c, 'allowance', num(allowance - 1), 'allowance_at', num(now))
  redis.call('ZADD', c .. ':students', num(now), token)
  return nil
end

-- The question's key, created (within the class's bounds) if it has no votes yet.
local function question(code, qid)
  local c = ckey(code)
  local qk = c .. ':q:' .. qid
  if redis.call('ZSCORE', c .. ':questions', qid) then return qk end
  if redis.call('ZCARD', c .. ':questions') >= L.max_questions then return nil end
  redis.call('ZADD', c .. ':questions', redis.call('HINCRBY', c, 'asked', 1), qid)
  redis.call('HSET', qk, 'rounds', 1, 'closed', 0, 'shown', 0, 'revealed', 0)
  return qk
end
"""

# Each call's own part, after the prelude; a refusal is returned as {why, value}.
_SCRIPTS = {
    "open_class": """
local lecturer, address, with_passcode, fresh = ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local codes = redis.call('ZRANGE', CLASSES, 0, -1)
local running = {}
for _, code in ipairs(codes) do
  if alive(code) then running[#running + 1] = code end
end
for _, code in ipairs(running) do
  local t = redis.call('HMGET', ckey(code), 'lecturer', 'key')
  if t[1] == lecturer then
    redis.call('HSET', ckey(code), 'seen', num(now))
    keep(code)
    return {'ok', code, t[2]}
  end
end
if with_passcode == '0' and address ~= '' then
  local held = 0
  for _, code in ipairs(running) do
    local t = redis.call('HMGET', ckey(code), 'address', 'with_passcode')
    if t[1] == address and t[2] == '0' then held = held + 1 end
  end
  if held >= L.classes_per_address then return {'address'} end
end
if #running >= L.max_classes then
  local oldest, oldest_at = nil, nil
  for _, code in ipairs(running) do
    if redis.call('ZCARD', ckey(code) .. ':students') == 0 then
      local at = tonumber(redis.call('HGET', ckey(code), 'opened'))
      if oldest == nil or at < oldest_at then oldest, oldest_at = code, at end
    end
  end
  if oldest == nil then return {'server_full'} end
  drop(oldest)
end
if redis.call('EXISTS', ckey(fresh)) == 1 then return {'taken'} end
local key = ARGV[7]
redis.call('HSET', ckey(fresh), 'key', key, 'lecturer', lecturer, 'address', address,
           'with_passcode', with_passcode, 'opened', num(now), 'touched', num(now),
           'seen', num(now), 'allowance', L.join_burst, 'allowance_at', num(now),
           'joining_open', 1, 'asked', 0, 'removals', 0)
redis.call('ZADD', CLASSES, num(now), fresh)
keep(fresh)
return {'ok', fresh, key}
""",
    "status": """
local code, key, within = ARGV[3], ARGV[4], tonumber(ARGV[5])
local refused = owned(code, key)
if refused then return refused end
local students = ckey(code) .. ':students'
local n, r = redis.call('ZCARD', students), 0
local pairs_ = redis.call('ZRANGE', students, 0, -1, 'WITHSCORES')
for i = 2, #pairs_, 2 do
  if now - tonumber(pairs_[i]) <= within then r = r + 1 end
end
return {'ok', n, r, redis.call('HGET', ckey(code), 'joining_open')}
""",
    "set_joining": """
local refused = owned(ARGV[3], ARGV[4])
if refused then return refused end
redis.call('HSET', ckey(ARGV[3]), 'joining_open', ARGV[5])
return {'ok'}
""",
    "remove_joined": """
local code, key, within = ARGV[3], ARGV[4], tonumber(ARGV[5])
local refused = owned(code, key)
if refused then return refused end
local c = ckey(code)
local late = {}
local pairs_ = redis.call('ZRANGE', c .. ':students', 0, -1, 'WITHSCORES')
for i = 2, #pairs_, 2 do
  if now - tonumber(pairs_[i]) <= within then late[#late + 1] = pairs_[i - 1] end
end
local questions = redis.call('ZRANGE', c .. ':questions', 0, -1)
for _, token in ipairs(late) do
  redis.call('ZREM', c .. ':students', token)
  redis.call('ZADD', c .. ':removed', 'NX', redis.call('HINCRBY', c, 'removals', 1), token)
  for _, q in ipairs(questions) do
    redis.call('HDEL', c .. ':q:' .. q, '1|' .. token, '2|' .. token)
  end
end
local beyond = redis.call('ZCARD', c .. ':removed') - 4 * L.max_students
if beyond > 0 then redis.call('ZREMRANGEBYRANK', c .. ':removed', 0, beyond - 1) end
keep(code)
return {'ok', #late}
""",
    "answers": """
local code, key = ARGV[3], ARGV[4]
local refused = owned(code, key)
if refused then return refused end
local c = ckey(code)
local out = {'ok'}
for _, q in ipairs(redis.call('ZRANGE', c .. ':questions', 0, -1)) do
  out[#out + 1] = q
  out[#out + 1] = redis.call('HGETALL', c .. ':q:' .. q)
end
return out
""",
    "close_question": """
local code, key, qid, what = ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local refused = owned(code, key)
if refused then return refused end
local qk = question(code, qid)
if not qk then return {'questions'} end
if what == 'reveal' then
  redis.call('HSET', qk, 'closed', 1, 'shown', 1, 'revealed', 1)
elseif what == 'show' then
  redis.call('HSET', qk, 'closed', 1, 'shown', 1)
else
  if tonumber(redis.call('HGET', qk, 'rounds')) >= tonumber(ARGV[7]) then
    return {'rounds'}
  end
  redis.call('HINCRBY', qk, 'rounds', 1)
  redis.call('HSET', qk, 'closed', 0, 'revealed', 0)
end
keep(code)
return {'ok'}
""",
    "set_step": """
local refused = owned(ARGV[3], ARGV[4])
if refused then return refused end
redis.call('HSET', ckey(ARGV[3]), 'step', ARGV[5])
return {'ok'}
""",
    "close_class": """
local refused = owned(ARGV[3], ARGV[4])
if refused then return refused end
drop(ARGV[3])
return {'ok'}
""",
    "join": """
local code, token = ARGV[3], ARGV[4]
if not alive(code) then return {'unknown'} end
local refused = seated(code, token)
if refused then return refused end
redis.call('HSET', ckey(code), 'touched', num(now))
keep(code)
return {'ok'}
""",
    "answer": """
local code, token, qid, packed = ARGV[3], ARGV[4], ARGV[5], ARGV[6]
if not alive(code) then return {'unknown'} end
local refused = seated(code, token)
if refused then return refused end
local qk = question(code, qid)
if not qk then return {'questions'} end
local t = redis.call('HMGET', qk, 'rounds', 'closed', 'revealed')
if t[3] == '1' then return {'revealed'} end
if t[2] == '1' then return {'closed'} end
redis.call('HSET', qk, t[1] .. '|' .. token, packed)
redis.call('HSET', ckey(code), 'touched', num(now))
keep(code)
return {'ok', tonumber(t[1])}
""",
    "live": """
local code, qid, token = ARGV[3], ARGV[4], ARGV[5]
if not alive(code) then return {'unknown'} end
local step = redis.call('HGET', ckey(code), 'step') or ''
if qid == '' then return {'ok', step, 1, '0', '0', '0', -1} end
local qk = ckey(code) .. ':q:' .. qid
local t = redis.call('HMGET', qk, 'rounds', 'closed', 'shown', 'revealed')
if not t[1] then return {'ok', step, 1, '0', '0', '0', -1} end
local vote = -1
if token ~= '' then vote = tonumber(redis.call('HGET', qk, t[1] .. '|' .. token) or -1) end
return {'ok', step, tonumber(t[1]), t[2], t[3], t[4], vote}
""",
    "classes": """
local n = 0
for _, code in ipairs(redis.call('ZRANGE', CLASSES, 0, -1)) do
  if alive(code) then n = n + 1 end
end
return {'ok', n}
""",
}

# The passcode's refusal windows, per session and per address (KEYS: their records).
_PASSCODE_WAIT = """
local now, forgotten = tonumber(ARGV[1]), tonumber(ARGV[2])
local wait = 0
for _, k in ipairs(KEYS) do
  local t = redis.call('HMGET', k, 'last', 'until')
  if t[1] then
    local last, until_ = tonumber(t[1]), tonumber(t[2])
    if now - last > forgotten and now >= until_ then redis.call('DEL', k)
    elseif until_ - now > wait then wait = until_ - now end
  end
end
return string.format('%.17g', wait)
"""
_PASSCODE_WRONG = """
local now, forgotten = tonumber(ARGV[1]), tonumber(ARGV[2])
local free, first, most = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
for _, k in ipairs(KEYS) do
  local count = redis.call('HINCRBY', k, 'count', 1)
  local until_ = tonumber(redis.call('HGET', k, 'until') or 0)
  local beyond = count - free
  if beyond >= 0 then until_ = now + math.min(first * 2 ^ beyond, most) end
  redis.call('HSET', k, 'last', string.format('%.17g', now),
             'until', string.format('%.17g', until_))
  redis.call('PEXPIRE', k, math.ceil((math.max(until_ - now, 0) + forgotten) * 1000))
end
return 1
"""

_OUTAGES = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


def connect(url: str) -> redis.Redis:
    """A client of the Redis at ``url`` that gives up quickly (see :data:`TIMEOUT_S`)."""
    return redis.Redis.from_url(url, socket_timeout=TIMEOUT_S,
                                socket_connect_timeout=TIMEOUT_S,
                                retry=Retry(NoBackoff(), 1), decode_responses=True)


class RedisStore:
    """Classes by code in Redis: a :class:`classroom.tally.ClassStore` every replica shares.

    Parameters
    ----------
    client : redis.Redis
        The connection (:func:`connect`), with ``decode_responses=True``.
    limits : Limits
        The bounds (each replica should use the same).
    clock : callable
        Seconds of the wall clock, the same in every replica (tests inject their own).
    namespace : str
        The prefix of every key.
    """

    def __init__(self, client: redis.Redis, limits: Limits,
                 clock: Callable[[], float] = time.time, namespace: str = NAMESPACE):
        self.limits = limits
        self._client, self._clock, self._namespace = client, clock, namespace
        self._limits_json = json.dumps(asdict(limits))
        self._scripts = {name: client.register_script(_PRELUDE + body)
                         for name, body in _SCRIPTS.items()}
        self._passcode_wait = client.register_script(_PASSCODE_WAIT)
        self._passcode_wrong = client.register_script(_PASSCODE_WRONG)

    # -- talking to Redis --------------------------------------------------------------
    def _run(self, name: str, *args: object) -> list:
        """Run the script ``name`` at the clock's time; a refusal it returns is raised
        (but for a new class's code already taken: an empty list)."""
        try:
            reply = self._scripts[name](keys=[self._namespace],
                                        args=[f"{self._clock():.17g}", self._limits_json,
                                              *args])
        except _OUTAGES as outage:
            _LOG.warning("The class store did not answer %s: %r", name, outage)
            raise store_unavailable() from outage
        if reply[0] in ("ok", "taken"):
            return reply[1:]
        if reply[0] == "too_fast":
            raise refusal("too_fast", self.limits, wait=int(reply[1]))
        raise refusal(reply[0], self.limits)

    def _passcode_records(self, session: str, address: str | None) -> list[str]:
        return [f"{self._namespace}:passcode:session:{session}"] + (
            [f"{self._namespace}:passcode:address:{address}"] if address else [])

    # -- the lecturer ------------------------------------------------------------------
    def check_passcode(self, typed: object, required: str, *, session: str,
                       address: str | None = None) -> None:
        limits = self.limits
        records = self._passcode_records(str(session), address)
        clock = [f"{self._clock():.17g}", FAILURES_FORGOTTEN_AFTER_S]
        try:
            wait = float(self._passcode_wait(keys=records, args=clock))
            if wait > 0:
                raise refusal("passcode_wait", limits, wait=Duration(math.ceil(wait)))
            if passcode_matches(typed, required):
                self._client.delete(*records)
                return
            self._passcode_wrong(keys=records, args=[
                *clock, limits.passcode_free_tries, limits.passcode_first_wait_s,
                limits.passcode_max_wait_s])
        except _OUTAGES as outage:
            _LOG.warning("The class store did not answer check_passcode: %r", outage)
            raise store_unavailable() from outage
        raise refusal("passcode_wrong", limits)

    def open_class(self, lecturer: str, *, address: str | None = None,
                   with_passcode: bool = False) -> tuple[str, str]:
        check_lecturer(lecturer)
        while True:  # 244 million codes, at most max_classes taken: one draw, nearly always
            fresh = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
            opened = self._run("open_class", lecturer, address or "", int(bool(with_passcode)),
                               fresh, secrets.token_urlsafe(16))
            if opened:
                code, key = opened
                return code, key

    def status(self, code: str, key: str) -> ClassStatus:
        students, recent, joining_open = self._run("status", normalise_code(code), str(key), 60)
        return ClassStatus(students, recent, joining_open == "1")

    def set_joining(self, code: str, key: str, open_: bool) -> None:
        self._run("set_joining", normalise_code(code), str(key), int(bool(open_)))

    def joined_within(self, code: str, key: str, seconds: float) -> int:
        return self._run("status", normalise_code(code), str(key), f"{seconds:.17g}")[1]

    def remove_joined(self, code: str, key: str, seconds: float) -> int:
        return self._run("remove_joined", normalise_code(code), str(key), f"{seconds:.17g}")[0]

    def _answers(self, code: str, key: str) -> dict[str, _Votes]:
        """Every question's votes, as the in-process store keeps them."""
        reply = self._run("answers", normalise_code(code), str(key))
        answers = {}
        for question, flat in zip(reply[::2], reply[1::2], strict=True):
            fields = dict(zip(flat[::2], flat[1::2], strict=True))
            rounds: list[dict[str, int]] = [{} for _ in range(int(fields["rounds"]))]
            for name, value in fields.items():
                number, bar, token = name.partition("|")
                if bar:
                    rounds[int(number) - 1][token] = int(value)
            answers[question] = _Votes(rounds, closed=fields["closed"] == "1",
                                       shown=fields["shown"] == "1",
                                       revealed=fields["revealed"] == "1")
        return answers

    def tally(self, code: str, key: str) -> dict[str, QuestionTally]:
        return {question: question_tally(votes, self.limits)
                for question, votes in self._answers(code, key).items()}

    def summary(self, code: str, key: str) -> dict[str, QuestionSummary]:
        return {question: _summarise(votes)
                for question, votes in self._answers(code, key).items()}

    def _close_question(self, code: str, key: str, question: str, what: str) -> None:
        check_question(question, self.limits)
        self._run("close_question", normalise_code(code), str(key), question, what, MAX_ROUNDS)

    def reveal(self, code: str, key: str, question: str) -> None:
        self._close_question(code, key, question, "reveal")

    def show_view(self, code: str, key: str, question: str) -> None:
        self._close_question(code, key, question, "show")

    def open_second_round(self, code: str, key: str, question: str) -> None:
        self._close_question(code, key, question, "round")

    def set_step(self, code: str, key: str, step: int) -> None:
        check_step(step)
        self._run("set_step", normalise_code(code), str(key), step)

    def students(self, code: str, key: str) -> int:
        return self.status(code, key).students

    def close_class(self, code: str, key: str) -> None:
        self._run("close_class", normalise_code(code), str(key))

    # -- the students ------------------------------------------------------------------
    def join(self, code: str, token: str) -> str:
        code = normalise_code(code)
        check_student(token)
        self._run("join", code, token)
        return code

    def answer(self, code: str, token: str, question: str, option: int, right: bool) -> int:
        check_option(option, self.limits)
        check_student(token)
        check_question(question, self.limits)
        return self._run("answer", normalise_code(code), token, question,
                         2 * option + int(bool(right)))[0]

    def _live(self, code: str, question: str | None, token: str) -> tuple[Live, int | None]:
        step, rounds, closed, shown, revealed, vote = self._run(
            "live", normalise_code(code), question or "", token)
        live = Live(int(step) if step else None, rounds, revealed=revealed == "1",
                    shown=shown == "1", voting_open=closed != "1")
        return live, (None if vote < 0 else vote // 2)

    def live(self, code: str, question: str | None = None) -> Live:
        return self._live(code, question, "")[0]

    def vote(self, code: str, token: str, question: str) -> int | None:
        return self._live(code, question, str(token))[1]

    def live_and_vote(self, code: str, token: str, question: str) -> tuple[Live, int | None]:
        return self._live(code, question, str(token))

    def classes(self) -> int:
        return self._run("classes")[0]
