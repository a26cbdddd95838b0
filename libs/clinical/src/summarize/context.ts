// NegEx-style context: is a mention negated, uncertain, in the past, or about a relative?
// The triggers are written for this project (after the NegEx idea: a trigger before a term, within
// its clause, changes what the term means; a clause ends at "but", "however", a full stop...).

export interface MentionContext {
  negated: boolean;
  possible: boolean;
  past: boolean;
  family: boolean;
}

const PRE_NEGATION =
  /\b(no|not|denies|denied|denying|negative for|without|no evidence of|no signs? of|free of|ruled out|rules out|absence of|never had|never diagnosed with|resolved without|no hx of|no history of|no h\/o|none)\b/i;
const POST_NEGATION =
  /^\W*(was |were |is |has been |have been |been )?(ruled out|unlikely|excluded|negative|not (present|found|seen|confirmed))\b/i;
const UNCERTAIN =
  /(\b(possible|possibly|probable|probably|likely|suspected|suspect|suspicion (of|for)|questionable|question of|rule out|r\/o|concern for|concerning for|cannot (be )?(exclude|rule out)|may have|versus|vs\.?|differential (diagnosis )?includes|presumed|consistent with)\b|\?\s*$)/i;
const POST_UNCERTAIN =
  /^\s*(\?|\b(vs\.?|versus)\b|\b(is|was) (possible|suspected|likely|considered)\b|\bconsidered\b)/i;
const PAST =
  /\b(history of|hx of|h\/o|s\/p|status post|prior|previous|previously|remote|resolved|former|childhood|in remission)\b/i;
const POST_PAST = /^\W*(\(?resolved\)?|\(?remote\)?|,? ?in remission|\(?inactive\)?|\(?historical\)?|\(?history\)?)/i;
const FAMILY =
  /\b(family history|fhx|fh|mother|father|sister|brother|maternal|paternal|grandmother|grandfather|aunt|uncle|sibling|siblings|son|daughter|cousin|parents?|mom|dad)\b/i;

// Where a clause ends: the trigger before it no longer reaches the term.
const CLAUSE_END =
  /[.;!]\s|\b(but|however|although|though|except|aside from|apart from|which|who|presents|presented|presenting|reports|complains|secondary to|due to|now|currently|and has|and is)\b/gi;

/** The part of `before` that is still in the term's clause. */
function clauseBefore(before: string): string {
  let start = 0;
  CLAUSE_END.lastIndex = 0;
  for (let m = CLAUSE_END.exec(before); m; m = CLAUSE_END.exec(before)) start = m.index + m[0].length;
  return before.slice(start);
}

function clauseAfter(after: string): string {
  CLAUSE_END.lastIndex = 0;
  const m = CLAUSE_END.exec(after);
  return m ? after.slice(0, m.index) : after;
}

/** The context of the term at [start, end) of `text`. */
export function contextOf(text: string, start: number, end: number): MentionContext {
  // A clause is short: looking 300 characters around keeps long paragraphs linear.
  const before = clauseBefore(text.slice(Math.max(0, start - 300), start));
  const after = clauseAfter(text.slice(end, end + 300));
  // NegEx scopes a pre-trigger to a few words; a list ("denies A, B or C") keeps it going.
  const near = before.split(/\s+/).slice(-8).join(' ');
  return {
    negated: PRE_NEGATION.test(near) || POST_NEGATION.test(after),
    possible: UNCERTAIN.test(near) || POST_UNCERTAIN.test(after),
    past: PAST.test(before) || POST_PAST.test(after),
    family: FAMILY.test(before),
  };
}

/** Context of a whole list item ("History of DVT", "Ruled out MI", "Possible OSA"). */
export function itemContext(item: string): MentionContext {
  return {
    negated:
      /^\W*(no|denies|denied|negative for|without|no evidence of|no history of|no hx of|never had)\b/i.test(item) ||
      /\bruled out\b/i.test(item),
    possible:
      /^\W*(possible|probable|likely|suspected|questionable|rule out|r\/o|\?)/i.test(item) ||
      /\?\s*\)?\s*$/.test(item) ||
      /\b(vs\.?|versus)\b/i.test(item),
    past:
      /^\W*(personal history of|history of|hx of|h\/o|s\/p|status post|prior|previous|remote|past|former|childhood)\b/i.test(
        item,
      ) || /\b(resolved|in remission|inactive|remote)\b/i.test(item),
    family: /^\W*(family history|fhx?)\b/i.test(item),
  };
}
