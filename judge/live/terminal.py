"""The terminal around a live session: prompt_toolkit line editing, history and completion. A
refused line comes back at the prompt with the cursor on the failing action; a question (the log
moved) is answered at a prompt of its own before anything is stored."""
from __future__ import annotations



from judge.live.session import LiveSession, Reply


# --- a script's header -----------------------------------------------------------------------------


def header_problem(session: LiveSession, lines: list[str]) -> str | None:
    """A notation file fed to `live` (an export, a game typed ahead) may start with its header
    block: accepted when it describes this match (ruleset, players in seat order, its id if named,
    its options), else what differs. [Deck] tags are refused: `import` records them, `live` does
    not (a deck line does)."""
    from engine.notation.header import contradiction, parse_header
    from engine.notation.lexer import NotationError

    m = session.match
    try:
        h = parse_header([line.rstrip("\n") for line in lines])
    except NotationError as e:
        return f"line {e.line}: {e.message}"
    problem = contradiction(h, m)
    if problem:
        return problem
    if h.decks:
        return "[Deck] tags are recorded by `tablejudge import`, not by `live` (record a deck line instead)"
    return None


# --- the terminal ----------------------------------------------------------------------------------


class Tally:
    """What a session refused, for the exit code of a script feeding a pipe."""

    def __init__(self) -> None:
        self.refused = 0
        self.conflicts = 0

    def add(self, reply: Reply) -> None:
        self.refused += reply.refused
        self.conflicts += reply.conflict


def run_terminal(session: LiveSession, *, history_file: str | None = None, echo=print,
                 interactive: bool | None = None) -> Tally:
    """The interactive loop. prompt_toolkit in a terminal; plain lines from a pipe."""
    import sys

    interactive = sys.stdin.isatty() if interactive is None else interactive
    session.interactive = interactive
    echo(f"live recorder · match {session.match.id} ({session.match.ruleset.name}) · "
         + ", ".join(f"{session.ctx.seat_of[p]}={p}" for p in session.match.players)
         + f" · events so far: {session.seen} · {session.role} {session.recorded_by}"
         + (" · strict" if session.strict else ""))
    for line in session.resume_lines():
        echo(line)
    session.mark_shown()
    echo("type an action (help: actions, ?: what is open now, quit: leave)")
    tally = Tally()

    def show(reply: Reply) -> None:
        tally.add(reply)
        if reply.lines:
            echo(reply.text)
        session.acknowledge(reply)  # after it is on the screen: kept for a resume

    if not interactive:
        header: list[str] | None = []  # a notation file's header block, until the first action
        for n, raw in enumerate(sys.stdin, start=1):
            # a file saved by Windows Notepad starts with a byte-order mark (files joined with cat: any
            # line may): not part of the line
            line = raw.removeprefix("\ufeff")
            if header is not None:
                if line.lstrip().startswith("[") or (header and not line.strip()):
                    header.append(line)
                    continue
                if header:
                    problem = header_problem(session, header)
                    if problem:
                        show(Reply([f"input lines 1-{len(header)}: {problem}", "  nothing was recorded"],
                                   refused=True))
                        return tally
                header = None
            reply = session.handle(line)
            if reply.refused:  # which line of the script: the column alone does not find it
                reply.lines.insert(0, f"input line {n}:")
            show(reply)
            if reply.quit:
                break
        if header:  # a header and no action
            problem = header_problem(session, header)
            if problem:
                show(Reply([f"input lines 1-{len(header)}: {problem}", "  nothing was recorded"], refused=True))
        return tally
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import Completer, Completion
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    class _Completer(Completer):
        def get_completions(self, document, complete_event):
            before = document.text_before_cursor
            current = before.split(" ")[-1]
            for word in session.completions(before):
                # a finished word gets its space (the next word can be typed at once); a zone> or
                # key= is only half a word
                text = word if word.endswith((">", "=", ":")) else word + " "
                yield Completion(text, start_position=-len(current), display=session.display(word))

    ps: PromptSession = PromptSession(
        history=FileHistory(history_file) if history_file else InMemoryHistory(),
        completer=_Completer(), complete_while_typing=False)
    answers: PromptSession = PromptSession()
    edit: tuple[str, int] | None = None
    while True:
        try:
            session.state()
            line = _ask_line(ps, session.prompt(), edit)
        except KeyboardInterrupt:
            edit = None
            continue
        except EOFError:
            echo(f"everything acknowledged is stored ({session.seen} events); resume with: "
                 f"tablejudge live {session.match.id}")
            return tally
        reply = session.handle(line)
        show(reply)
        while reply.question is not None:
            try:
                answer = answers.prompt("  " + reply.question.prompt())
            except (KeyboardInterrupt, EOFError):
                answer = "d"
            reply = session.handle(answer)
            show(reply)
        if reply.quit:
            return tally
        edit = reply.edit


def _ask_line(ps, prompt: str, edit: tuple[str, int] | None) -> str:
    """One line at the prompt; a refused line comes back in it, the cursor at the failing action."""
    if edit is None:
        return ps.prompt(prompt)
    text, cursor = edit

    def place_cursor() -> None:
        ps.default_buffer.cursor_position = min(cursor, len(text))

    return ps.prompt(prompt, default=text, pre_run=place_cursor)
