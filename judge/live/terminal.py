"""The terminal around a live session: prompt_toolkit line editing, history and completion."""
from __future__ import annotations



from judge.live.session import LiveSession


# --- the terminal ----------------------------------------------------------------------------------


def run_terminal(session: LiveSession, *, history_file: str | None = None, echo=print,
                 interactive: bool | None = None) -> int:
    """The interactive loop. prompt_toolkit in a terminal; plain lines from a pipe. Returns how many
    lines were refused (a script feeding a pipe wants to know)."""
    import sys

    interactive = sys.stdin.isatty() if interactive is None else interactive
    echo(f"live recorder · match {session.match.id} ({session.match.ruleset.name}) · "
         + ", ".join(f"{session.ctx.seat_of[p]}={p}" for p in session.match.players)
         + f" · events so far: {session.seen}" + (" · strict" if session.strict else ""))
    recent = [e for e in session.match.events()[-5:] if e.position > 1]
    if recent:  # resuming: where the table is
        echo("last events:")
        for e in recent:
            echo(f"  #{e.position} {session.line_of(e)}")
    echo("type an action (help: actions, ?: legal now, quit: leave)")
    refused = 0

    def respond(line: str) -> bool:
        """Handle one line and show the reply; True when the session ends."""
        nonlocal refused
        reply = session.handle(line)
        refused += reply.refused
        if reply.lines:
            echo(reply.text)
        return reply.quit

    if not interactive:
        for raw in sys.stdin:
            if respond(raw):
                break
        return refused
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
    while True:
        try:
            session.state()
            line = ps.prompt(session.prompt())
        except KeyboardInterrupt:
            continue
        except EOFError:
            echo(f"everything typed is stored ({session.seen} events); resume with: "
                 f"tablejudge live {session.match.id}")
            return refused
        if respond(line):
            return refused
