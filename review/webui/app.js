// pair's page. Hand-written, no dependencies. Everything the model or a
// file says is shown as text (textContent), never as HTML.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);

  // What the page knows: the last event it applied, the conversation as
  // shown, and the pending review and question.
  let seq = 0;
  let convo = []; // {role, text, streaming, el}
  let review = null;
  let question = null;
  let events = null;
  const drafts = new Map(); // note being typed, by hunk id
  const editing = new Map(); // open editors: the text being edited, by hunk id
  const hunkErrors = new Map(); // the server's refusal of an action, by hunk id
  let queue = Promise.resolve(); // decisions are posted one after another
  // The seq of the state whose review and question are shown. Every change
  // to them publishes an event, so a state no newer than this one shows
  // nothing new: drawing it again would only replace the buttons under the
  // pointer (a click pressed on one and released on its copy is lost).
  let pendingSeq = -1;

  const statusText = {
    idle: "Idle: send a message",
    working: "The model is working…",
    review: "Waiting for your decision",
  };

  // api calls the JSON API; the token travels in the cookie.
  async function api(method, path, body) {
    const init = { method, credentials: "same-origin", cache: "no-store", headers: {} };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const res = await fetch(path, init);
    let data = null;
    try {
      data = await res.json();
    } catch (e) {
      data = null;
    }
    if (!res.ok) {
      const err = new Error((data && data.error) || res.status + " " + res.statusText);
      err.status = res.status;
      err.data = data;
      throw err;
    }
    return data;
  }

  function showError(err) {
    const el = $("error");
    if (!err) {
      el.hidden = true;
      el.textContent = "";
      return;
    }
    el.textContent = err.message || String(err);
    el.hidden = false;
  }

  function showNotice(text) {
    const el = $("notice");
    el.textContent = text || "";
    el.hidden = !text;
  }

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") e.className = v;
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  // ---- status and connection

  function setStatus(s) {
    const box = $("status");
    box.dataset.status = s || "idle";
    $("status-text").textContent = statusText[s] || s || "";
    $("input").closest("form").dataset.status = s || "idle";
  }

  function setConn(state, text) {
    const c = $("conn");
    c.dataset.conn = state;
    c.textContent = text;
  }

  // ---- conversation

  const roleName = { user: "you", assistant: "model", tool: "tool", system: "pair", error: "error" };

  function nearBottom(box) {
    return box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  }

  function addMessage(role, text, streaming) {
    const box = $("conversation");
    const stick = nearBottom(box);
    $("conversation-empty").hidden = true;
    const m = { role, text, streaming: !!streaming };
    m.el = el("div", { class: "msg", "data-role": role, "data-streaming": m.streaming ? "true" : "false" });
    m.el.append(el("div", { class: "role" }, roleName[role] || role));
    m.textEl = el("div", { class: "text" }, text);
    m.el.append(m.textEl);
    box.append(m.el);
    convo.push(m);
    if (stick) box.scrollTop = box.scrollHeight;
    return m;
  }

  function openStream() {
    const last = convo[convo.length - 1];
    return last && last.streaming ? last : null;
  }

  function closeStream() {
    const m = openStream();
    if (m) {
      m.streaming = false;
      m.el.dataset.streaming = "false";
    }
    return m;
  }

  function setText(m, text) {
    const box = $("conversation");
    const stick = nearBottom(box);
    m.text = text;
    m.textEl.textContent = text;
    if (stick) box.scrollTop = box.scrollHeight;
  }

  // The same rules as the server's record of the conversation.
  function onToken(text) {
    const m = openStream() || addMessage("assistant", "", true);
    setText(m, m.text + text);
  }

  function onMessage(role, text) {
    role = role || "assistant";
    const open = closeStream();
    if (open && role === "assistant") {
      if (text) setText(open, text);
      return;
    }
    addMessage(role, text || "", false);
  }

  function renderConversation(list) {
    const box = $("conversation");
    for (const m of convo) m.el.remove();
    convo = [];
    $("conversation-empty").hidden = list.length > 0;
    for (const m of list) addMessage(m.role, m.text, m.streaming);
    box.scrollTop = box.scrollHeight;
  }

  // ---- action log

  function addLog(time, text) {
    const log = $("log");
    const li = el("li");
    const t = time ? new Date(time) : null;
    if (t && !isNaN(t)) {
      li.append(el("time", { datetime: t.toISOString() }, t.toLocaleTimeString()));
    }
    li.append(document.createTextNode(text));
    log.append(li);
    log.scrollTop = log.scrollHeight;
  }

  function renderLog(list) {
    $("log").replaceChildren();
    for (const e of list) addLog(e.time, e.text);
  }

  // ---- review

  function plural(n, word) {
    return n + " " + word + (n === 1 ? "" : "s");
  }

  function placementText(it) {
    let s = "placed: " + it.placement;
    if (it.offset) {
      const n = Math.abs(it.offset);
      s += " (" + (it.offset > 0 ? "+" : "-") + plural(n, "line") + " from where the patch said)";
    }
    return s;
  }

  function diffLine(l) {
    const cls = l.kind === "+" ? "ln add" : l.kind === "-" ? "ln del" : "ln ctx";
    const span = el("span", { class: cls, "data-kind": l.kind });
    // The server sends the line with its control and format characters
    // escaped (^[, \u202e), and a marker when it had any.
    const text = l.text;
    if (l.marker) span.dataset.marked = "true";
    if (l.kind === "+") {
      // Trailing whitespace an added line brings, as git shows it.
      const body = text.replace(/[ \t]+$/, "");
      span.append(document.createTextNode("+" + body));
      if (body.length < text.length) span.append(el("span", { class: "ws", title: "trailing whitespace" }, text.slice(body.length)));
    } else {
      span.textContent = l.kind + text;
    }
    if (l.marker) span.append(el("span", { class: "ctl-marker" }, l.marker));
    return span;
  }

  function hunkBlock(it, file) {
    const art = el("article", { class: "hunk", "data-hunk-id": it.id, "data-decision": it.decision, "data-path": it.path });
    const head = el("div", { class: "hunk-head" });
    head.append(el("span", { class: "id" }, "#" + it.id));
    head.append(el("span", { class: "where" }, it.where));
    if (it.placement && file.action !== "create") {
      head.append(el("span", { class: "placement", "data-label": it.placement, title: it.placement_help }, placementText(it)));
    }
    let badge = it.decision;
    if (it.granted) badge += " (always approved in this session)";
    if (it.edited && it.decision !== "rejected") badge += " (edited)";
    head.append(el("span", { class: "badge" }, badge));
    art.append(head);

    if (it.not_covered && it.decision === "undecided") art.append(el("p", { class: "not-covered" }, it.not_covered));
    if (it.placement_help) art.append(el("p", { class: "placement-help" }, it.placement_help));
    if (it.notes && it.notes.length) {
      const ul = el("ul", { class: "place-notes" });
      for (const n of it.notes) ul.append(el("li", {}, n));
      art.append(ul);
    }
    if (it.change) {
      art.append(el("div", { class: "change" }, it.change));
    } else {
      const pre = el("pre", { class: "diff" });
      const code = el("code");
      code.append(el("span", { class: "hdr" }, it.header));
      for (const l of it.lines) code.append(diffLine(l));
      pre.append(code);
      art.append(pre);
      if (it.eof) art.append(el("div", { class: "eof" }, "\\ " + it.eof));
    }

    const acts = el("div", { class: "actions" });
    const approved = it.decision === "approved" || it.decision === "edited";
    acts.append(el("button", { type: "button", "data-action": "approve", "aria-pressed": approved && !it.granted ? "true" : "false" }, "Approve"));
    acts.append(el("button", { type: "button", "data-action": "reject", "aria-pressed": it.decision === "rejected" ? "true" : "false" }, "Reject"));
    const note = el("input", {
      type: "text",
      class: "note",
      "data-note-for": it.id,
      "aria-label": "Note for the model about hunk " + it.id,
      placeholder: "Note for the model (why you reject it)",
    });
    note.value = drafts.has(it.id) ? drafts.get(it.id) : it.note || "";
    acts.append(note);
    const granted = review && review.grants.includes(it.path);
    acts.append(el("button", {
      type: "button",
      "data-action": "always",
      "aria-pressed": granted ? "true" : "false",
      title: "Approve every hunk of " + file.shown + " now, and later edits of its content for the rest of this session",
    }, "Always approve this file"));
    if (it.splittable) {
      acts.append(el("button", { type: "button", "data-action": "split", title: "Cut this hunk into its runs of changes, to decide each" }, "Split"));
    }
    if (it.editable && !editing.has(it.id)) {
      acts.append(el("button", { type: "button", "data-action": "edit", title: "Change the hunk before approving it" }, "Edit"));
    }
    if (it.decision !== "undecided") {
      acts.append(el("button", { type: "button", "data-action": "undecided", title: "Take the decision back" }, "Undo"));
    }
    art.append(acts);
    if (it.editable && editing.has(it.id)) art.append(editorBlock(it));
    if (hunkErrors.has(it.id)) {
      art.append(el("div", { class: "hunk-error", role: "alert", "data-error-for": it.id }, hunkErrors.get(it.id)));
    }
    return art;
  }

  // editorBlock is the open editor of a hunk: the text of the terminal's
  // e, to change and save (an edit approves the hunk as changed).
  function editorBlock(it) {
    const box = el("div", { class: "editor" });
    const ta = el("textarea", {
      "data-edit-for": it.id,
      "aria-label": "Edit hunk " + it.id,
      spellcheck: "false",
      rows: String(Math.min(30, editing.get(it.id).split("\n").length + 1)),
    });
    ta.value = editing.get(it.id);
    box.append(ta);
    const acts = el("div", { class: "actions" });
    acts.append(el("button", { type: "button", "data-action": "save-edit" }, "Save edit"));
    acts.append(el("button", { type: "button", "data-action": "cancel-edit" }, "Cancel"));
    box.append(acts);
    return box;
  }

  function renderReview(v) {
    review = v;
    const sec = $("review");
    if (!v) {
      sec.hidden = true;
      $("review-items").replaceChildren();
      drafts.clear();
      return;
    }
    if (sec.dataset.review !== String(v.serial)) {
      // A new review: ids start again.
      drafts.clear();
      editing.clear();
      hunkErrors.clear();
    }
    // Forget what was open for items that are gone (split).
    const ids = new Set(v.items.map((it) => it.id));
    for (const m of [editing, hunkErrors]) {
      for (const id of [...m.keys()]) if (!ids.has(id)) m.delete(id);
    }
    sec.hidden = false;
    sec.dataset.review = String(v.serial);
    const t = v.totals;
    const parts = [plural(v.items.length, "hunk")];
    if (t.approved + t.edited) parts.push((t.approved + t.edited) + " approved");
    if (t.rejected) parts.push(t.rejected + " rejected");
    if (t.undecided) parts.push(t.undecided + " undecided");
    if (t.failed) parts.push(t.failed + " could not be placed");
    $("review-summary").textContent = parts.join(", ");

    const active = document.activeElement;
    const focused = active && active.dataset ? active.dataset.noteFor : undefined;
    const focusedEdit = active && active.dataset ? active.dataset.editFor : undefined;
    const caret = focusedEdit ? [active.selectionStart, active.selectionEnd, active.scrollTop] : null;
    const box = $("review-items");
    const nodes = [];
    let lastFile = -1;
    const shownFiles = new Set();
    for (const it of v.items) {
      const file = v.files[it.file];
      if (it.file !== lastFile) {
        lastFile = it.file;
        const h = el("h3", { class: "file-head", "data-file": file.path }, file.shown);
        let action = file.action;
        // Deletions, renames, mode changes and links are always named.
        if (file.changes && file.changes.length) action = file.changes.join(", ");
        if (file.action !== "modify" || file.changes) h.append(el("span", { class: "action" }, action));
        nodes.push(h);
        if (!shownFiles.has(it.file)) {
          shownFiles.add(it.file);
          for (const f of file.failed || []) nodes.push(el("p", { class: "failed" }, "hunk " + f.hunk + " of the patch could not be placed: " + f.reason));
        }
      }
      nodes.push(hunkBlock(it, file));
    }
    // Files with nothing to decide, only hunks that could not be placed.
    v.files.forEach((file, i) => {
      if (shownFiles.has(i) || !file.failed) return;
      nodes.push(el("h3", { class: "file-head", "data-file": file.path }, file.shown));
      for (const f of file.failed) nodes.push(el("p", { class: "failed" }, "hunk " + f.hunk + " of the patch could not be placed: " + f.reason));
    });
    box.replaceChildren(...nodes);
    if (focused) {
      const n = box.querySelector('[data-note-for="' + CSS.escape(focused) + '"]');
      if (n) n.focus();
    }
    if (focusedEdit) {
      const n = box.querySelector('[data-edit-for="' + CSS.escape(focusedEdit) + '"]');
      if (n) {
        n.focus();
        n.setSelectionRange(caret[0], caret[1]);
        n.scrollTop = caret[2];
      }
    }

    // Per file, what will be written, named as the terminal's summary
    // names it ("1 approved (deleted)").
    $("file-summary").replaceChildren(...v.summary.map((s) => {
      const li = el("li", { "data-file": s.path });
      li.append(el("span", { class: "path" }, s.shown), document.createTextNode(" " + s.text));
      return li;
    }));

    const approved = t.approved + t.edited;
    const submit = $("submit");
    submit.textContent = "Submit: " + v.verb + " " + plural(approved, "approved hunk");
    submit.disabled = false;
    const hint = $("submit-hint");
    hint.dataset.undecided = String(v.undecided);
    hint.textContent = v.undecided > 0
      ? plural(v.undecided, "hunk") + " still undecided: submitting rejects " + (v.undecided === 1 ? "it" : "them") + "."
      : "Every hunk is decided.";
  }

  function decide(id, decision) {
    const body = { review: review.serial, decisions: [{ id, decision }], submit: false };
    if (decision === "reject") {
      const input = $("review-items").querySelector('[data-note-for="' + CSS.escape(id) + '"]');
      body.decisions[0].note = input ? input.value : drafts.get(id) || "";
    }
    return post("/api/decisions", body);
  }

  // hunkAction posts a split or an edit of one hunk; the server's refusal
  // (a hunk that cannot be split, an edit that changes the file's own
  // lines) shows next to the hunk, whose editor stays open.
  function hunkAction(id, d) {
    if (!review) return;
    const body = { review: review.serial, decisions: [Object.assign({ id }, d)], submit: false };
    return enqueue(async () => {
      try {
        const s = await api("POST", "/api/decisions", body);
        hunkErrors.delete(id);
        if (d.decision === "edit") editing.delete(id);
        showError(null);
        applyPending(s);
      } catch (err) {
        if (err.status !== 400) throw err;
        hunkErrors.set(id, err.message);
        if (review) renderReview(review);
      }
    });
  }

  function openEditor(id) {
    const it = review && review.items.find((i) => i.id === id);
    if (!it || !it.editable) return;
    editing.set(id, it.edit_text || "");
    hunkErrors.delete(id);
    renderReview(review);
    const ta = $("review-items").querySelector('[data-edit-for="' + CSS.escape(id) + '"]');
    if (ta) ta.focus();
  }

  function saveEdit(id) {
    const ta = $("review-items").querySelector('[data-edit-for="' + CSS.escape(id) + '"]');
    const text = ta ? ta.value : editing.get(id);
    editing.set(id, text);
    hunkAction(id, { decision: "edit", text });
  }

  function cancelEdit(id) {
    editing.delete(id);
    hunkErrors.delete(id);
    if (review) renderReview(review);
  }

  function submit() {
    if (!review) return;
    const serial = review.serial;
    $("submit").disabled = true;
    enqueue(async () => {
      const s = await api("POST", "/api/decisions", { review: serial, decisions: [], submit: true });
      showError(null);
      applyPending(s);
    });
  }

  function post(path, body) {
    return enqueue(async () => {
      const s = await api("POST", path, body);
      showError(null);
      applyPending(s);
    });
  }

  function enqueue(fn) {
    queue = queue.then(fn).catch((err) => {
      showError(err);
      if (err.data && err.data.state) applyPending(err.data.state);
      if (review) $("submit").disabled = false;
    });
    return queue;
  }

  // applyPending shows the review and question of a state, unless what
  // is shown is as new.
  function applyPending(s) {
    if (s.seq <= pendingSeq) return;
    pendingSeq = s.seq;
    renderReview(s.review);
    renderQuestion(s.question);
  }

  // ---- question (a command the model wants to run)

  function renderQuestion(q) {
    question = q;
    const sec = $("question");
    if (!q) {
      sec.hidden = true;
      sec.replaceChildren();
      return;
    }
    if (sec.dataset.question === String(q.serial) && !sec.hidden) return;
    sec.dataset.question = String(q.serial);
    const nodes = [el("h2", {}, q.title)];
    if (q.detail) nodes.push(el("pre", {}, q.detail));
    const acts = el("div", { class: "actions" });
    acts.append(el("button", { type: "button", "data-action": "allow" }, "Allow"));
    acts.append(el("button", { type: "button", "data-action": "deny" }, "Deny"));
    acts.append(el("input", { type: "text", "data-note-for": "question", "aria-label": "Note for the model", placeholder: "Note for the model (optional)" }));
    nodes.push(acts);
    sec.replaceChildren(...nodes);
    sec.hidden = false;
  }

  function answer(approve) {
    if (!question) return;
    const note = $("question").querySelector('[data-note-for="question"]').value;
    post("/api/answer", { question: question.serial, approve, note });
  }

  // ---- events

  function onEvent(e) {
    if (e.kind === "reset") {
      refresh(true);
      return;
    }
    if (e.id <= seq) return; // already shown
    seq = e.id;
    switch (e.kind) {
      case "token":
        onToken(e.text || "");
        break;
      case "message":
        onMessage(e.role, e.text);
        break;
      case "tool":
        onMessage("tool", e.text);
        break;
      case "log":
        addLog(e.time, e.text || "");
        break;
      case "status":
        closeStream();
        setStatus(e.text);
        break;
      case "review":
        if (e.text) showNotice(e.text);
        else showNotice("");
        // After the decisions being posted, whose answers may already
        // show this change.
        enqueue(async () => {
          if (e.id > pendingSeq) await refresh(false);
        });
        break;
    }
  }

  // refresh fetches the state again: all of it, or only what waits for
  // a decision.
  async function refresh(all) {
    try {
      const s = await api("GET", "/api/state");
      if (all) applyState(s);
      else applyPending(s);
    } catch (err) {
      showError(err);
    }
  }

  function applyState(s) {
    seq = s.seq;
    document.title = s.title;
    $("title").textContent = s.title;
    setStatus(s.status);
    renderConversation(s.conversation);
    renderLog(s.log);
    applyPending(s);
  }

  function connect(after) {
    if (events) events.close();
    events = new EventSource("/api/events?after=" + after);
    events.onopen = () => setConn("ok", "connected");
    events.onmessage = (m) => {
      let e;
      try {
        e = JSON.parse(m.data);
      } catch (err) {
        return;
      }
      onEvent(e);
    };
    events.onerror = () => {
      if (events.readyState === EventSource.CLOSED) setConn("lost", "disconnected: is pair still running?");
      else setConn("lost", "reconnecting…");
    };
  }

  // ---- input

  function send() {
    const input = $("input");
    const text = input.value.trim();
    if (!text) return;
    const btn = document.querySelector('[data-action="send"]');
    btn.disabled = true;
    api("POST", "/api/chat", { text })
      .then(() => {
        input.value = "";
        showError(null);
      })
      .catch(showError)
      .finally(() => {
        btn.disabled = false;
        input.focus();
      });
  }

  function wire() {
    $("send-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      send();
    });
    $("input").addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
        ev.preventDefault();
        send();
      }
    });
    $("review").addEventListener("click", (ev) => {
      const b = ev.target.closest("button[data-action]");
      if (!b || !review) return;
      const action = b.dataset.action;
      if (action === "submit") {
        submit();
        return;
      }
      const hunk = b.closest("[data-hunk-id]");
      if (!hunk) return;
      const id = hunk.dataset.hunkId;
      if (["approve", "reject", "always", "undecided"].includes(action)) decide(id, action);
      else if (action === "split") hunkAction(id, { decision: "split" });
      else if (action === "edit") openEditor(id);
      else if (action === "save-edit") saveEdit(id);
      else if (action === "cancel-edit") cancelEdit(id);
    });
    $("review").addEventListener("input", (ev) => {
      const id = ev.target.dataset && ev.target.dataset.noteFor;
      if (id) drafts.set(id, ev.target.value);
      const eid = ev.target.dataset && ev.target.dataset.editFor;
      if (eid && editing.has(eid)) editing.set(eid, ev.target.value);
    });
    $("review").addEventListener("change", (ev) => {
      // A note changed on a rejected hunk goes with its rejection.
      const id = ev.target.dataset && ev.target.dataset.noteFor;
      if (!id || !review) return;
      const it = review.items.find((i) => i.id === id);
      if (it && it.decision === "rejected" && it.note !== ev.target.value.trim()) decide(id, "reject");
    });
    $("question").addEventListener("click", (ev) => {
      const b = ev.target.closest("button[data-action]");
      if (!b) return;
      if (b.dataset.action === "allow") answer(true);
      if (b.dataset.action === "deny") answer(false);
    });
  }

  async function start() {
    wire();
    try {
      const s = await api("GET", "/api/state");
      applyState(s);
      connect(s.seq);
      document.body.dataset.ready = "true";
    } catch (err) {
      setConn("lost", "not connected");
      showError(err);
    }
  }

  start();
})();
