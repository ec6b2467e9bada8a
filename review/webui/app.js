// pair's page. Hand-written, no dependencies. Everything the model or a
// file says is shown as text (textContent), never as HTML: the model's
// Markdown is built as elements around text nodes (see markdown).
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
  let current = null; // the id of the hunk the keys act on
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


  // ---- the model's Markdown
  //
  // A small subset, built as DOM nodes whose text is only ever set as
  // text: nothing the model writes is parsed as HTML, so a <script> or an
  // <img onerror> in its reply shows as those characters. Blocks:
  // paragraphs, headings, lists, quotes and fenced code (monospace,
  // indentation kept, never wrapped); a fenced diff links to its files'
  // hunk cards. Inline: `code`, *emphasis*, **strong**, and [links](url),
  // live only for http and https.

  const fenceRe = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
  const listRe = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
  const headingRe = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;

  function markdown(text) {
    const lines = text.replace(/\r\n?/g, "\n").split("\n");
    const out = [];
    let para = null; // lines of the open paragraph
    let list = null; // the open list: {el, ordered}
    const endPara = () => {
      if (para) {
        const p = el("p");
        p.append(...inline(para.join("\n"), 0));
        out.push(p);
      }
      para = null;
    };
    const endBlocks = () => {
      endPara();
      list = null;
    };
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      const fence = fenceRe.exec(line);
      if (fence) {
        endBlocks();
        const mark = fence[1];
        const body = [];
        for (i++; i < lines.length; i++) {
          const close = lines[i].trim();
          if (close.startsWith(mark) && close.replace(new RegExp("^\\" + mark[0] + "+"), "") === "") break;
          body.push(lines[i]);
        }
        out.push(...codeBlock(fence[2].toLowerCase(), body));
        continue;
      }
      if (line.trim() === "") {
        endPara();
        if (list && !listRe.test(lines[i + 1] || "")) list = null;
        continue;
      }
      const h = headingRe.exec(line);
      if (h) {
        endBlocks();
        const p = el("p", { class: "md-h", "data-level": String(h[1].length) });
        p.append(...inline(h[2], 0));
        out.push(p);
        continue;
      }
      const li = listRe.exec(line);
      if (li) {
        endPara();
        const ordered = /\d/.test(li[2]);
        if (!list || list.ordered !== ordered) {
          list = { el: el(ordered ? "ol" : "ul"), ordered };
          if (ordered && li[2] !== "1." && li[2] !== "1)") list.el.setAttribute("start", String(parseInt(li[2], 10)));
          out.push(list.el);
        }
        const item = el("li");
        const depth = Math.min(4, Math.floor(li[1].replace(/\t/g, "    ").length / 2));
        if (depth) item.style.marginLeft = depth * 1.2 + "em";
        item.append(...inline(li[3], 0));
        list.el.append(item);
        continue;
      }
      if (list && /^\s+\S/.test(line) && !para) {
        // A continuation of the last item.
        list.el.lastChild.append(document.createTextNode("\n"), ...inline(line.trim(), 0));
        continue;
      }
      if (/^ {0,3}>/.test(line)) {
        endBlocks();
        const q = el("blockquote");
        q.append(...inline(line.replace(/^ {0,3}> ?/, ""), 0));
        out.push(q);
        continue;
      }
      list = null;
      (para = para || []).push(line);
    }
    endPara();
    return out;
  }

  // isDiff says whether a fenced block holds a unified diff.
  function isDiff(lang, body) {
    if (lang === "diff" || lang === "patch") return true;
    const first = body.find((l) => l.trim() !== "") || "";
    return /^(diff --git |--- \S|@@ -\d)/.test(first);
  }

  // diffFiles names the files a diff changes, from its +++ and --- lines.
  function diffFiles(body) {
    const files = [];
    for (let i = 0; i < body.length; i++) {
      const m = /^\+\+\+ (?:b\/)?(.+?)(?:\t.*)?$/.exec(body[i]);
      if (!m) continue;
      let path = m[1];
      if (path === "/dev/null") {
        const old = /^--- (?:a\/)?(.+?)(?:\t.*)?$/.exec(body[i - 1] || "");
        if (!old) continue;
        path = old[1];
      }
      if (!files.includes(path)) files.push(path);
    }
    return files;
  }

  function codeBlock(lang, body) {
    const pre = el("pre", { class: "md-code" });
    const code = el("code");
    if (lang) code.dataset.lang = lang;
    pre.append(code);
    if (!isDiff(lang, body)) {
      code.textContent = body.join("\n");
      return [pre];
    }
    pre.classList.add("md-diff");
    for (const l of body) {
      const kind = /^(\+\+\+|---|diff |@@|index )/.test(l) ? "hdr" : l[0] === "+" ? "add" : l[0] === "-" ? "del" : "ctx";
      code.append(el("span", { class: "ln " + kind }, l));
    }
    // The diff is proposed as hunks: they are decided in their cards.
    const note = el("p", { class: "md-diff-note" });
    const files = diffFiles(body);
    if (!files.length) {
      note.append("A proposed change: ", el("a", { href: "#review", "data-goto-file": "" }, "see its hunks in the review"), ".");
    } else {
      note.append("A proposed change to ");
      files.forEach((f, i) => {
        if (i) note.append(i === files.length - 1 ? " and " : ", ");
        note.append(el("a", { href: "#review", "data-goto-file": f, title: "Go to the hunks of " + f }, f));
      });
      note.append(": decide it in the review's hunk cards.");
    }
    return [note, pre];
  }

  const punct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

  // inline renders the spans of one block.
  function inline(s, depth) {
    const nodes = [];
    let buf = "";
    const flush = () => {
      if (buf) nodes.push(document.createTextNode(buf));
      buf = "";
    };
    const word = (c) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
    for (let i = 0; i < s.length; ) {
      const c = s[i];
      if (c === "\\" && punct.includes(s[i + 1] || "\0")) {
        buf += s[i + 1];
        i += 2;
        continue;
      }
      if (c === "`") {
        let n = 0;
        while (s[i + n] === "`") n++;
        const run = "`".repeat(n);
        let j = s.indexOf(run, i + n);
        while (j >= 0 && s[j + n] === "`") {
          let k = j;
          while (s[k] === "`") k++;
          j = s.indexOf(run, k);
        }
        if (j < 0) {
          buf += run;
          i += n;
          continue;
        }
        flush();
        let inner = s.slice(i + n, j).replace(/\n/g, " ");
        if (/^ .*[^ ].* $/.test(inner)) inner = inner.slice(1, -1);
        nodes.push(el("code", {}, inner));
        i = j + n;
        continue;
      }
      if ((c === "*" || c === "_") && depth < 6) {
        const strong = s[i + 1] === c;
        const mark = strong ? c + c : c;
        const from = i + mark.length;
        const opens = s[from] !== undefined && !/\s/.test(s[from]) && !(c === "_" && word(s[i - 1]));
        // The closing mark: after some text, not after a space, not
        // inside a word for _, and for a single mark not part of a double.
        const closes = (j) => !/\s/.test(s[j - 1]) && !(c === "_" && word(s[j + mark.length])) &&
          (strong || (s[j + 1] !== c && s[j - 1] !== c));
        let j = opens ? s.indexOf(mark, from + 1) : -1;
        while (j >= 0 && !closes(j)) j = s.indexOf(mark, j + 1);
        if (j >= 0) {
          flush();
          const e = el(strong ? "strong" : "em");
          e.append(...inline(s.slice(from, j), depth + 1));
          nodes.push(e);
          i = j + mark.length;
          continue;
        }
      }
      if (c === "[") {
        const m = /^\[([^\]\n]+)\]\(\s*<?([^\s()<>]+)>?(?:\s+"[^"\n]*")?\s*\)/.exec(s.slice(i));
        if (m) {
          flush();
          nodes.push(link(m[1], m[2], depth));
          i += m[0].length;
          continue;
        }
      }
      buf += c;
      i++;
    }
    flush();
    return nodes;
  }

  // link is a link of the model's: live for http and https, opened
  // apart from the page and told nothing of it; any other address
  // (javascript:, data:, a path) is shown as text.
  function link(text, href, depth) {
    let url = null;
    try {
      url = new URL(href);
    } catch (e) {
      url = null;
    }
    if (url && (url.protocol === "http:" || url.protocol === "https:")) {
      const a = el("a", { href: url.href, target: "_blank", rel: "noopener noreferrer", title: url.href });
      a.append(...inline(text, depth + 1));
      return a;
    }
    const span = el("span", { class: "md-link" });
    span.append(...inline(text, depth + 1), document.createTextNode(" (" + href + ")"));
    return span;
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
    m.textEl = el("div", { class: "text" });
    showText(m, text);
    m.el.append(m.textEl);
    box.append(m.el);
    convo.push(m);
    if (stick) box.scrollTop = box.scrollHeight;
    return m;
  }

  // showText shows a message's text: the model's as Markdown, the rest
  // as it is.
  function showText(m, text) {
    m.text = text;
    if (m.role !== "assistant") {
      m.textEl.textContent = text;
      return;
    }
    m.textEl.classList.add("md");
    m.textEl.replaceChildren(...markdown(text));
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
    if (m.role === "assistant" && m.streaming) {
      // Tokens come faster than frames: the reply is drawn again once a
      // frame, with all that came.
      m.text = text;
      if (!m.frame) m.frame = requestAnimationFrame(() => drawText(m));
      return;
    }
    if (m.frame) cancelAnimationFrame(m.frame);
    m.text = text;
    drawText(m);
  }

  function drawText(m) {
    m.frame = 0;
    const box = $("conversation");
    const stick = nearBottom(box);
    showText(m, m.text);
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
    const art = el("article", {
      class: "hunk", "data-hunk-id": it.id, "data-decision": it.decision, "data-path": it.path,
      "data-current": it.id === current ? "true" : "false",
    });
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
    if (it.rules && it.rules.length) {
      // Why it goes there: the rules that placed it, as --explain lists them.
      const why = el("details", { class: "rules" });
      why.append(el("summary", {}, "why here"));
      const ul = el("ul", {});
      for (const r of it.rules) ul.append(el("li", { "data-rule": r.id }, r.id + ": " + r.statement));
      why.append(ul);
      art.append(why);
    }
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
        const of = v.items.filter((i) => i.file === it.file);
        if (of.length > 1) {
          h.append(el("button", {
            type: "button",
            "data-action": "approve-file",
            "data-file-index": String(it.file),
            disabled: !of.some((i) => i.decision === "undecided"),
            title: "Approve every undecided hunk of " + file.shown + " (key a, at a hunk of it)",
          }, "Approve all in this file"));
        }
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
    if (!ids.has(current)) {
      // Where the keys act: the first undecided hunk, or the first.
      const first = v.items.find((i) => i.decision === "undecided") || v.items[0];
      select(first ? first.id : null, false);
    }
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
    $("verify").hidden = !v.verify || approved === 0;
    // Without a test command the page asks for one, as the terminal's v
    // does; the last one typed stays in the field.
    $("verify-command").hidden = $("verify").hidden || !v.ask_command;
    const cmd = $("verify-cmd");
    if (v.typed_command && cmd.value === "" && document.activeElement !== cmd) cmd.value = v.typed_command;
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
    if (decision === "reject" || decision === "reject-file") {
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

  // runVerify runs the tests on the approved hunks, once the decisions
  // being posted are in, and shows the outcome beside the summary.
  function runVerify() {
    if (!review) return;
    const serial = review.serial;
    const body = { review: serial };
    const asking = !$("verify-command").hidden;
    if (asking) {
      body.command = $("verify-cmd").value.trim();
      if (body.command === "") {
        showError(new Error("Type the command that runs the tests first."));
        $("verify-cmd").focus();
        return;
      }
    }
    const button = $("verify");
    button.disabled = true;
    $("verify-result").replaceChildren(el("p", { id: "verify-progress", class: "hint" }, "Running the tests…"));
    queue.then(() => api("POST", "/api/verify", body))
      .then((r) => { showError(null); showVerify(r); })
      .catch((err) => {
        showError(err);
        $("verify-result").replaceChildren();
        if (err.data && err.data.ask_command) {
          $("verify-command").hidden = false;
          $("verify-cmd").focus();
        }
      })
      .finally(() => { button.disabled = false; });
  }

  function showVerify(r) {
    const kids = [el("p", { class: r.pass ? "verify-pass" : "verify-fail" }, r.lines[0])];
    if (r.lines.length > 1) kids.push(el("pre", {}, r.lines.slice(1).join("\n")));
    if (r.culprits.length > 0) {
      kids.push(el("button", { type: "button", "data-action": "reject-culprits", "data-ids": r.culprits.join(" ") },
        "Reject " + (r.culprits.length === 1 ? "that hunk" : "those hunks") + " and run the tests again"));
    }
    const all = el("details", {});
    all.append(el("summary", {}, "All of the output"), el("pre", {}, r.output));
    kids.push(all);
    $("verify-result").replaceChildren(...kids);
  }

  function rejectCulprits(ids) {
    if (!review) return;
    post("/api/decisions", { review: review.serial, decisions: ids.map((id) => ({ id, decision: "reject" })), submit: false });
    runVerify();
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
      case "verify": {
        const p = $("verify-progress");
        if (p) p.textContent = "verify: " + (e.text || "");
        break;
      }
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


  // ---- keys, as the terminal's review has them

  const keyHelp = [
    ["y", "approve this hunk"],
    ["n", "reject this hunk (with the note typed in its field, if any)"],
    ["r", "write a note for the model, then Enter rejects the hunk with it"],
    ["a", "approve this hunk and every undecided hunk of its file"],
    ["d", "reject this hunk and every undecided hunk of its file"],
    ["s", "split this hunk into smaller hunks"],
    ["e", "edit this hunk"],
    ["u", "take the decision back"],
    ["j / k", "go to the next / previous undecided hunk"],
    ["J / K, ↓ / ↑", "go to the next / previous hunk"],
    ["Enter", "submit the decisions, once every hunk is decided"],
    ["?", "show or hide these keys"],
    ["Esc", "leave a text field, or close this list"],
  ];

  function renderKeys() {
    const dl = el("dl");
    for (const [k, what] of keyHelp) dl.append(el("dt", {}, k), el("dd", {}, what));
    $("keys-list").replaceChildren(dl);
  }

  function toggleKeys(show) {
    $("keys").hidden = show === undefined ? !$("keys").hidden : !show;
  }

  function hunkEl(id) {
    return id === null ? null : $("review-items").querySelector('[data-hunk-id="' + CSS.escape(id) + '"]');
  }

  // select makes a hunk the one the keys act on.
  function select(id, scroll) {
    const old = hunkEl(current);
    if (old) old.dataset.current = "false";
    current = id;
    const e = hunkEl(id);
    if (!e) return;
    e.dataset.current = "true";
    if (scroll) e.scrollIntoView({ block: "nearest" });
  }

  // move selects the next hunk after the current one (step 1) or before
  // it (step -1), the next undecided one when undecided is set; it
  // returns whether there was one.
  function move(step, undecided) {
    if (!review) return false;
    const items = review.items;
    const at = items.findIndex((i) => i.id === current);
    for (let i = at + step; i >= 0 && i < items.length; i += step) {
      if (!undecided || items[i].decision === "undecided") {
        select(items[i].id, true);
        return true;
      }
    }
    return false;
  }

  // decideKey decides the current hunk, then goes on to the next
  // undecided hunk, or back to an earlier one, as the terminal does.
  async function decideKey(decision) {
    const id = current;
    await decide(id, decision);
    if (!review || !review.items.some((i) => i.id === id)) return;
    if (!move(1, true)) move(-1, true);
  }

  function typing(t) {
    return t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
  }

  function onKey(ev) {
    if (ev.defaultPrevented || ev.isComposing || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (typing(ev.target)) {
      if (ev.key === "Escape") ev.target.blur();
      // Enter in a hunk's note rejects the hunk with it.
      const id = ev.target.dataset.noteFor;
      if (ev.key === "Enter" && id && id !== "question" && review) {
        ev.preventDefault();
        select(id, false);
        ev.target.blur();
        decideKey("reject");
      }
      return;
    }
    if (ev.key === "Enter" && ev.target.closest && ev.target.closest("button, a")) return;
    if (ev.key === "?") {
      toggleKeys();
    } else if (ev.key === "Escape") {
      if ($("keys").hidden) return;
      toggleKeys(false);
    } else if (review && current !== null) {
      if (!keyAction(ev.key)) return;
    } else if (question && (ev.key === "y" || ev.key === "n")) {
      answer(ev.key === "y");
    } else {
      return;
    }
    ev.preventDefault();
  }

  // keyAction runs a review key; it returns false for a key that is not
  // one.
  function keyAction(key) {
    const it = review.items.find((i) => i.id === current);
    switch (key) {
      case "y": decideKey("approve"); break;
      case "n": decideKey("reject"); break;
      case "a": decideKey("approve-file"); break;
      case "d": decideKey("reject-file"); break;
      case "u": decide(current, "undecided"); break;
      case "r": {
        const n = hunkEl(current)?.querySelector("[data-note-for]");
        if (n) n.focus();
        break;
      }
      case "s": if (it && it.splittable) hunkAction(current, { decision: "split" }); break;
      case "e": if (it && it.editable) openEditor(current); break;
      case "j": move(1, true); break;
      case "k": move(-1, true); break;
      case "J": case "ArrowDown": move(1, false); break;
      case "K": case "ArrowUp": move(-1, false); break;
      case "Enter": if (review.undecided === 0) submit(); break;
      default: return false;
    }
    return true;
  }

  // goToFile shows the hunk cards of a file the model's diff names.
  function goToFile(path) {
    const sec = $("review");
    if (!review || sec.hidden) {
      showNotice("No change is waiting for review.");
      return;
    }
    const it = path ? review.items.find((i) => i.path === path || review.files[i.file].path === path) : review.items[0];
    if (!it) {
      showNotice(path + " has no hunk in this review.");
      sec.scrollIntoView({ block: "start" });
      return;
    }
    select(it.id, true);
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
    renderKeys();
    document.addEventListener("keydown", onKey);
    $("keys-button").addEventListener("click", () => toggleKeys());
    $("keys").addEventListener("click", (ev) => {
      if (ev.target.closest("[data-action=\"close-keys\"]")) toggleKeys(false);
    });
    $("conversation").addEventListener("click", (ev) => {
      const a = ev.target.closest("a[data-goto-file]");
      if (!a) return;
      ev.preventDefault();
      goToFile(a.dataset.gotoFile);
    });
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
    $("verify-cmd").addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && !ev.isComposing) {
        ev.preventDefault();
        runVerify();
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
      if (action === "verify") {
        runVerify();
        return;
      }
      if (action === "reject-culprits") {
        rejectCulprits(b.dataset.ids.split(" "));
        return;
      }
      if (action === "approve-file" && b.dataset.fileIndex !== undefined) {
        const file = Number(b.dataset.fileIndex);
        const it = review.items.find((i) => i.file === file && i.decision === "undecided");
        if (it) decide(it.id, "approve-file");
        return;
      }
      const hunk = b.closest("[data-hunk-id]");
      if (!hunk) return;
      const id = hunk.dataset.hunkId;
      select(id, false);
      if (["approve", "reject", "always", "undecided"].includes(action)) decide(id, action);
      else if (action === "split") hunkAction(id, { decision: "split" });
      else if (action === "edit") openEditor(id);
      else if (action === "save-edit") saveEdit(id);
      else if (action === "cancel-edit") cancelEdit(id);
    });
    // A click on a hunk makes it the one the keys act on.
    $("review-items").addEventListener("click", (ev) => {
      const h = ev.target.closest("[data-hunk-id]");
      if (h) select(h.dataset.hunkId, false);
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
