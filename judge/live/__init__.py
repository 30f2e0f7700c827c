"""The live recorder: a scorekeeper types one notation line per action as the game is played
(session.py); terminal.py puts prompt_toolkit's line editing and completion around a session."""

from judge.live.session import COMMANDS, JUDGE_DEFAULT_KINDS, Reply, LiveSession
from judge.live.terminal import run_terminal
