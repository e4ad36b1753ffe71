// Host page sections folded by the moment (issue 19): at the setup the invitation and the first
// card are open; during a turn the controls; with a challenge (or a card's question) pending the
// controls, with the question first; at the end of a round the timeline, its file and the replay.
// The sections the moment does not need are folded, never removed: a tap on a summary opens one.
// The folding changes only when the moment changes, so a section the host opened stays open
// through the taps of the same moment.
"use strict";

const Moments = {
  last: null,
  SECTIONS: ["now-fold", "invite-fold", "timeline-fold"],
  WORDS: {setup: "setting up: invite the players, then turn up the first card",
          turn: "during a turn", challenge: "a challenge or a card's question is pending",
          over: "the end of the round"},

  // The moment from the state the page already has and the host actions shown for it.
  of(s, actions) {
    if (s.phase === "over" || s.phase === "scoring") return "over";
    if (s.phase === "setup" || !s.top_card) return "setup";
    if (actions.some(a => a.section === "decision")) return "challenge";
    return "turn";
  },

  opened(moment, actions) {
    const turnish = actions.some(a => a.section !== "anytime");
    return {setup: ["now-fold", "invite-fold"], turn: ["now-fold"], challenge: ["now-fold"],
            over: turnish ? ["timeline-fold", "now-fold"] : ["timeline-fold"]}[moment];
  },

  apply(s, actions) {
    const moment = this.of(s, actions);
    document.body.dataset.moment = moment;
    const words = document.getElementById("moment-words");
    if (words) words.textContent = this.WORDS[moment];
    if (moment === this.last) return;
    this.last = moment;
    const open = this.opened(moment, actions);
    for (const id of this.SECTIONS) {
      const el = document.getElementById(id);
      if (el) el.open = open.includes(id);
    }
  },
};
