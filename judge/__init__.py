"""tablejudge judge: what a judge does with match logs (validate, time limits, standings, reports,
exports) and the command line."""
