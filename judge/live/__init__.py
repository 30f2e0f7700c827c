"""The live recorder: a scorekeeper types one notation line per action as the game is played.

- session.py: one line in, the reply out (judged whole, stored in one transaction, refusals that
  say where, the log moving under a line shown and asked about);
- moved.py: the other recorder's events as lines, and how much of a line repeats them;
- options.py: `?`, what is open now; announce.py: the end of a game, with its rule;
- acks.py: the last acknowledged position, kept for a resume;
- actor.py: who acts on a line that names no actor (the web's recorder too);
- terminal.py: prompt_toolkit's line editing and completion around a session.
"""

from judge.live.actor import JUDGE_DEFAULT_KINDS
from judge.live.session import COMMANDS, ROLES, LiveSession, Question, Reply
from judge.live.terminal import run_terminal
