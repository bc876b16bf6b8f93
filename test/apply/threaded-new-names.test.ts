// Branch usesx: a new variant, case or class threaded through several places. The update copies an
// original line for the new name (`given Decoder[Pause]` written like `given Decoder[Stop]`, a style
// rule for the class the template brings in written like its neighbour's): such a line is new beside
// the one it copies, not an edit of the original line at the hunk's edge (new-name-evidence.ts
// copiesOtherLine, block-names.ts STYLE_RULE). The Vue case fails on main 4abf1395 (the old line read
// as edited, the no-loss pass puts it back at the wrong place); the control, an enum member renamed at
// every use, stays a rename. The branch's Scala case (a case class copied beside a kept original) went
// with the rule that made the usesy control fail, reverted at the merge.
import { describe, it } from 'vitest';
import { lines, mergedEverywhere } from './judged.js';

describe('usesx: a new variant threaded through several places', () => {
  it('vue: a prop across script, template and style, its style rule written like the sibling rule', () => {
    mergedEverywhere(lines(["<template>", "  <div class=\"badge\">", "    <span class=\"badge__label\">{{ label }}</span>", "  </div>", "</template>", "", "<script setup lang=\"ts\">", "defineProps<{ label: string }>()", "</script>", "", "<style scoped>", ".badge {", "  display: inline-block;", "}", ".badge__label {", "  font-size: 0.875rem;", "}", "</style>"]), lines(["<template>", "  <div class=\"badge\">", "    <span v-if=\"count\" class=\"badge__count-label\">{{ count }}</span>", "    <span class=\"badge__label\">{{ label }}</span>", "  </div>", "</template>", "", "<script setup lang=\"ts\">", "defineProps<{ label: string; count?: number }>()", "</script>", "", "<style scoped>", "/* ... */", ".badge__count-label {", "  margin-right: 0.25rem;", "}", "</style>"]), lines(["<template>", "  <div class=\"badge\">", "    <span v-if=\"count\" class=\"badge__count-label\">{{ count }}</span>", "    <span class=\"badge__label\">{{ label }}</span>", "  </div>", "</template>", "", "<script setup lang=\"ts\">", "defineProps<{ label: string; count?: number }>()", "</script>", "", "<style scoped>", ".badge {", "  display: inline-block;", "}", ".badge__label {", "  font-size: 0.875rem;", "}", ".badge__count-label {", "  margin-right: 0.25rem;", "}", "</style>"]));
  });

  it('an enum member renamed at every use stays a rename (control)', () => {
    mergedEverywhere(lines(["from enum import Enum", "", "", "class Kind(Enum):", "    CLICKED = \"clicked\"", "    VIEWED = \"viewed\"", "    PURCHASED = \"purchased\"", "", "", "LABELS = {", "    Kind.CLICKED: \"Click\",", "    Kind.VIEWED: \"View\",", "    Kind.PURCHASED: \"Purchase\",", "}", "", "", "def weight(kind: Kind) -> int:", "    if kind is Kind.PURCHASED:", "        return 10", "    return 1"]), lines(["class Kind(Enum):", "    CLICKED = \"clicked\"", "    VIEWED = \"viewed\"", "    BOUGHT = \"purchased\"", "", "", "LABELS = {", "    # ...", "    Kind.BOUGHT: \"Purchase\",", "}", "", "", "def weight(kind: Kind) -> int:", "    if kind is Kind.BOUGHT:", "        return 10", "    return 1"]), lines(["from enum import Enum", "", "", "class Kind(Enum):", "    CLICKED = \"clicked\"", "    VIEWED = \"viewed\"", "    BOUGHT = \"purchased\"", "", "", "LABELS = {", "    Kind.CLICKED: \"Click\",", "    Kind.VIEWED: \"View\",", "    Kind.BOUGHT: \"Purchase\",", "}", "", "", "def weight(kind: Kind) -> int:", "    if kind is Kind.BOUGHT:", "        return 10", "    return 1"]), 'rename PURCHASED to BOUGHT');
  });
});
