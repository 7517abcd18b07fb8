// DiffableWeb's browser client: keeps a DOM list in step with a DiffableDataSource on the
// server. Plain JavaScript, no framework; served by the library at <mount path>/client.js.
//
//   const list = new DiffableList(document.getElementById("list"), "/leaderboard/ws");
//   list.setFilter("ann");
//
// Several server instances: pass their WebSocket URLs in order of preference,
//   new DiffableList(element, ["/leaderboard/ws", "ws://127.0.0.1:8081/leaderboard/ws"]);
// when a connection closes (its instance stopped), the next one in the list is tried, and so on
// round the list; each new connection starts with the whole list, so one reload converges.
// Behind a load balancer, one same-origin URL is enough: every reconnect reaches a live instance.
//
// Each server message is either the whole list ("reload") or one batch of steps whose indices
// are valid one after another ("batch"). Rows are moved with moveBefore/insertBefore, never
// re-created, so a moved row keeps its node, its focus and its scroll position.
(function (global) {
  "use strict";

  // Rows of one section by position: blocks of nodes, so finding, inserting and removing the
  // row at an index costs O(sqrt n) instead of an array splice's O(n).
  const BLOCK = 512;
  class RowIndex {
    constructor(nodes) {
      this.blocks = [];
      for (let i = 0; i < nodes.length; i += BLOCK) this.blocks.push(nodes.slice(i, i + BLOCK));
      this.length = nodes.length;
    }
    locate(index) {
      const blocks = this.blocks;
      let b = 0;
      while (index >= blocks[b].length) { index -= blocks[b].length; b++; }
      return [b, index];
    }
    get(index) {
      if (index >= this.length) return null;
      const [b, o] = this.locate(index);
      return this.blocks[b][o];
    }
    insert(index, node) {
      if (index < 0 || index > this.length) throw new RangeError("row index " + index + " out of 0..." + this.length);
      if (this.blocks.length === 0) this.blocks.push([]);
      let b, o;
      if (index === this.length) { b = this.blocks.length - 1; o = this.blocks[b].length; } else { [b, o] = this.locate(index); }
      const block = this.blocks[b];
      block.splice(o, 0, node);
      if (block.length > 2 * BLOCK) this.blocks.splice(b + 1, 0, block.splice(BLOCK));
      this.length++;
    }
    remove(index) {
      if (index < 0 || index >= this.length) throw new RangeError("row index " + index + " out of 0..<" + this.length);
      const [b, o] = this.locate(index);
      const block = this.blocks[b];
      const node = block.splice(o, 1)[0];
      if (block.length === 0) this.blocks.splice(b, 1);
      this.length--;
      return node;
    }
    indexOf(node) {
      let base = 0;
      for (const block of this.blocks) {
        const i = block.indexOf(node);
        if (i >= 0) return base + i;
        base += block.length;
      }
      return -1;
    }
  }

  // A row is its markup (flat section) or [markup, level, flags] (outline: 1 expandable, 2 expanded).
  function rowInner(row) {
    if (typeof row === "string") return row;
    const flags = row[2];
    const open = (flags & 2) !== 0;
    const button = (flags & 3) !== 0
      ? '<button type="button" class="dl-disclosure" aria-expanded="' + open + '">' + (open ? "\u25BE" : "\u25B8") + "</button>"
      : '<span class="dl-disclosure-space"></span>';
    return button + '<span class="dl-content">' + row[0] + "</span>";
  }
  function rowAttributes(row) {
    if (typeof row === "string") return ' class="dl-row"';
    return ' class="dl-row dl-outline-row" data-level="' + (row[1] | 0) + '" style="padding-left:' + 1.25 * (row[1] | 0) + 'em"';
  }
  function fillRow(li, row) {
    if (typeof row === "string") {
      li.className = "dl-row";
      li.removeAttribute("data-level");
      li.style.paddingLeft = "";
    } else {
      li.className = "dl-row dl-outline-row";
      li.dataset.level = String(row[1] | 0);
      li.style.paddingLeft = 1.25 * (row[1] | 0) + "em";
    }
    li.innerHTML = rowInner(row);
  }
  // Runs `change`, which may take the focused element inside `scope` out of the page and put
  // it back; the focus, and a text field's selection, are then restored.
  function keepingFocus(scope, change) {
    const active = document.activeElement;
    const focused = active && active !== document.body && scope.contains(active);
    let selection = null;
    if (focused) try { selection = [active.selectionStart, active.selectionEnd]; } catch (e) { /* not a text field */ }
    change();
    if (focused && active.isConnected) {
      active.focus({ preventScroll: true });
      if (selection && selection[0] !== null) try { active.setSelectionRange(selection[0], selection[1]); } catch (e) { /* ignore */ }
    }
  }
  function makeRow(row) {
    const li = document.createElement("li");
    fillRow(li, row);
    return li;
  }
  // All rows of a section at once: one parse of the joined markup; per-row nodes when trusted
  // raw markup did not give exactly one element per row.
  function fillRows(ul, rows) {
    let html = "";
    for (const row of rows) html += "<li" + rowAttributes(row) + ">" + rowInner(row) + "</li>";
    ul.innerHTML = html;
    if (ul.children.length !== rows.length) {
      ul.textContent = "";
      for (const row of rows) ul.appendChild(makeRow(row));
    }
    return Array.from(ul.children);
  }

  // The WebSocket close status a server sends when the viewer's credentials expire
  // (ScopedLiveLists.credentialsExpiredCloseCode).
  const CREDENTIALS_EXPIRED = 4401;

  class DiffableList {
    // container: the element the list fills; url: the WebSocket path or URL (relative to the
    // page), or an array of them (instances to fail over to, tried in turn).
    // options.onStatus(text), options.onError(error), options.onApplied(info), options.onExpired():
    // optional callbacks (onExpired: the server closed the connection because the viewer's
    // credentials expired; the list stops until reconnect()).
    constructor(container, url, options) {
      this.container = container;
      this.endpoints = (Array.isArray(url) ? url : [url]).map((each) => {
        const resolved = new URL(each, global.location.href);
        resolved.protocol = resolved.protocol === "https:" ? "wss:" : resolved.protocol === "http:" ? "ws:" : resolved.protocol;
        return resolved;
      });
      if (this.endpoints.length === 0) throw new TypeError("DiffableList: no WebSocket URL given");
      this.endpointIndex = 0;
      this.url = this.endpoints[0];
      this.filterText = "";
      this.connections = 0;
      this.options = options || {};
      this.sections = [];
      this.seq = 0;
      this.awaitingReload = true;
      this.closed = false;
      this.expired = false;
      this.retryDelay = 250;
      this.stats = { messages: 0, reloads: 0, resyncs: 0, gaps: 0, steps: { d: 0, i: 0, m: 0, r: 0, c: 0, D: 0, I: 0, M: 0, R: 0 } };
      this.lastError = null;
      this.dropNextBatch = 0; // tests: skip the next N batch messages (see onMessage)
      container.classList.add("dl-list");
      container.addEventListener("click", (event) => this.onClick(event));
      this.connect();
    }

    connect() {
      this.url = this.endpoints[this.endpointIndex];
      const socket = new WebSocket(this.url.href);
      this.socket = socket;
      this.awaitingReload = true;
      this.status("connecting");
      socket.onopen = () => {
        this.retryDelay = 250;
        this.connections++;
        this.status("live");
        // A new connection starts unfiltered: the filter the user typed goes again.
        if (this.filterText !== "") this.send({ t: "filter", text: this.filterText });
      };
      socket.onmessage = (event) => this.onMessage(event.data);
      socket.onclose = (event) => {
        if (this.socket !== socket) return;
        if (event.code === CREDENTIALS_EXPIRED) {
          // The server closed it because the viewer's credentials (its cookie) expired: the same
          // credentials would be refused again, so this stops and says so. After signing in
          // again, the page calls reconnect().
          this.expired = true;
          this.status("signed out: credentials expired");
          if (this.options.onExpired) this.options.onExpired();
          return;
        }
        this.status(event.code === 1009 ? "closed: message too large" : "reconnecting");
        // The next instance, round the list; with one URL, the same one after a growing delay.
        this.endpointIndex = (this.endpointIndex + 1) % this.endpoints.length;
        const delay = this.endpointIndex === 0 ? this.retryDelay : 50;
        if (!this.closed) setTimeout(() => this.connect(), delay);
        if (this.endpointIndex === 0) this.retryDelay = Math.min(this.retryDelay * 2, 5000);
      };
    }

    close() {
      this.closed = true;
      if (this.socket) this.socket.close();
    }

    // Connects again after the server closed the connection because its credentials expired
    // (options.onExpired), once the page has new ones (e.g. a fresh cookie).
    reconnect() {
      if (this.closed || !this.expired) return;
      this.expired = false;
      this.connect();
    }

    status(text) {
      this.statusText = text;
      if (this.options.onStatus) this.options.onStatus(text);
    }

    send(message) {
      if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
    }

    setFilter(text) {
      this.filterText = String(text);
      this.send({ t: "filter", text: this.filterText });
    }

    onMessage(data) {
      const received = performance.now();
      let message;
      try { message = JSON.parse(data); } catch (e) { this.status("unreadable message"); return; }
      this.stats.messages++;
      if (message.t === "error") {
        this.lastError = message;
        if (this.options.onError) this.options.onError(message);
        return;
      }
      if (message.t === "reload") {
        this.applyReload(message.sections);
        this.seq = message.seq;
        this.awaitingReload = false;
        this.stats.reloads++;
      } else if (message.t === "batch") {
        // Tests: the message is acknowledged but never applied, so the next one shows a gap.
        if (this.dropNextBatch > 0) { this.dropNextBatch--; this.ack(message.seq); return; }
        if (this.awaitingReload) { this.ack(message.seq); return; }
        if (message.seq !== this.seq + 1) {
          this.stats.gaps++;
          this.resync();
          this.ack(message.seq);
          return;
        }
        try {
          this.applySteps(message.steps);
        } catch (error) {
          // The list no longer matches the server: start again from a full reload.
          console.error("DiffableList: " + error);
          this.resync();
          this.ack(message.seq);
          return;
        }
        this.seq = message.seq;
      } else {
        return;
      }
      this.ack(this.seq);
      if (this.options.onApplied) this.options.onApplied({ type: message.t, seq: message.seq, bytes: data.length, ms: performance.now() - received });
    }

    ack(seq) { this.send({ t: "ack", seq: seq }); }

    resync() {
      if (this.awaitingReload) return;
      this.awaitingReload = true;
      this.stats.resyncs++;
      this.send({ t: "resync" });
    }

    // The whole list, as the server has it now.
    applyReload(sections) {
      this.container.textContent = "";
      this.sections = [];
      for (const section of sections) {
        const made = this.makeSection(section);
        this.container.appendChild(made.element);
        this.sections.push(made);
      }
    }

    makeSection(section) {
      const element = document.createElement("section");
      element.className = "dl-section";
      const header = document.createElement("h3");
      header.className = "dl-header";
      if (section[0] === null) header.hidden = true; else header.innerHTML = section[0];
      const ul = document.createElement("ul");
      ul.className = "dl-rows";
      element.append(header, ul);
      return { element: element, header: header, ul: ul, rows: new RowIndex(fillRows(ul, section[1])) };
    }

    section(index) {
      const section = this.sections[index];
      if (!section) throw new RangeError("no section " + index);
      return section;
    }

    moveNode(parent, node, before) {
      if (typeof parent.moveBefore === "function" && node.isConnected && parent.isConnected) {
        try { parent.moveBefore(node, before); return; } catch (e) { /* fall back below */ }
      }
      keepingFocus(node, () => parent.insertBefore(node, before));
    }

    // A section's rows in their new order at once ("o"): a number is the row now at that
    // index (its node kept), anything else a new row. Rows not named are dropped. The nodes are
    // taken out and put back in one insertion each way, which costs far less than one move per
    // row when most rows move; a focused field inside a kept row keeps its focus.
    reorder(section, entries) {
      const old = [];
      for (const block of section.rows.blocks) for (const node of block) old.push(node);
      const kept = new Uint8Array(old.length);
      const nodes = new Array(entries.length);
      for (let j = 0; j < entries.length; j++) {
        const entry = entries[j];
        if (typeof entry === "number") {
          if (!(entry >= 0 && entry < old.length) || kept[entry]) throw new RangeError("reorder names row " + entry + " of " + old.length + " twice or out of range");
          kept[entry] = 1;
          nodes[j] = old[entry];
        } else {
          nodes[j] = makeRow(entry);
        }
      }
      // Every row out in one operation (the kept ones are held in `nodes`), then back in order:
      // appending detached nodes to a fragment costs nothing per row.
      const ul = section.ul, parent = ul.parentNode, next = ul.nextSibling;
      keepingFocus(ul, () => {
        ul.remove();
        ul.textContent = "";
        const fragment = document.createDocumentFragment();
        for (const node of nodes) fragment.appendChild(node);
        ul.appendChild(fragment);
        parent.insertBefore(ul, next);
      });
      section.rows = new RowIndex(nodes);
    }

    applySteps(steps) {
      const counts = this.stats.steps;
      for (const step of steps) {
        const op = step[0];
        counts[op] = (counts[op] || 0) + 1;
        switch (op) {
          case "d": {
            this.section(step[1]).rows.remove(step[2]).remove();
            break;
          }
          case "i": {
            const section = this.section(step[1]);
            const node = makeRow(step[3]);
            section.ul.insertBefore(node, section.rows.get(step[2]));
            section.rows.insert(step[2], node);
            break;
          }
          case "m": {
            const from = this.section(step[1]);
            const to = this.section(step[3]);
            const node = from.rows.remove(step[2]);
            // Where it goes is read before the index takes it in: the node now at that position.
            const before = to.rows.get(step[4]);
            this.moveNode(to.ul, node, before);
            to.rows.insert(step[4], node);
            // A move may carry the row's new content (a reconfigure folded into it).
            if (step.length > 5) fillRow(node, step[5]);
            break;
          }
          case "r": {
            const section = this.section(step[1]);
            const old = section.rows.remove(step[2]);
            const node = makeRow(step[3]);
            section.ul.replaceChild(node, old);
            section.rows.insert(step[2], node);
            break;
          }
          case "o": {
            this.reorder(this.section(step[1]), step[2]);
            break;
          }
          case "c": {
            const node = this.section(step[1]).rows.get(step[2]);
            if (!node) throw new RangeError("no row " + step[2] + " in section " + step[1]);
            fillRow(node, step[3]);
            break;
          }
          case "D": {
            this.section(step[1]).element.remove();
            this.sections.splice(step[1], 1);
            break;
          }
          case "I": {
            const made = this.makeSection(step[2]);
            const before = this.sections[step[1]];
            this.container.insertBefore(made.element, before ? before.element : null);
            this.sections.splice(step[1], 0, made);
            break;
          }
          case "M": {
            const moved = this.section(step[1]);
            this.sections.splice(step[1], 1);
            const before = this.sections[step[2]];
            this.moveNode(this.container, moved.element, before ? before.element : null);
            this.sections.splice(step[2], 0, moved);
            break;
          }
          case "R": {
            const old = this.section(step[1]);
            const made = this.makeSection(step[2]);
            this.container.replaceChild(made.element, old.element);
            this.sections[step[1]] = made;
            break;
          }
          default:
            throw new Error("unknown step " + JSON.stringify(op));
        }
      }
    }

    // A click on a disclosure control asks the server to expand or collapse that row.
    onClick(event) {
      const button = event.target.closest ? event.target.closest(".dl-disclosure") : null;
      if (!button || !this.container.contains(button)) return;
      const row = button.closest(".dl-row");
      const sectionIndex = this.sections.findIndex((s) => s.ul === row.parentNode);
      if (sectionIndex < 0) return;
      const item = this.sections[sectionIndex].rows.indexOf(row);
      if (item < 0) return;
      this.send({ t: "toggle", seq: this.seq, section: sectionIndex, item: item });
    }
  }

  global.DiffableList = DiffableList;
})(window);
