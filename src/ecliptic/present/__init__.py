"""What a person reads beside the observation: action labels, groups, costs and effects, click
targets, refusals, component names, the running score, prices and the decision in words. The
terminal game and the server's view share it (docs/present.md); no rule is written here."""
