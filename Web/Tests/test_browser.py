"""DiffableWeb in a real browser: the server applies snapshots, the client script replays the
steps in headless chromium, and every check reads the page's DOM."""

import base64
import json
import random
import socket
import time
import urllib.parse
import urllib.request

from conftest import Server

# The list as the page shows it: per section its header and its rows (a flat row is its text;
# an outline row is [text, level, has disclosure, expanded]).
DOM_STATE = """() => Array.from(document.querySelectorAll("#list > section.dl-section")).map((s) => {
  const header = s.querySelector(".dl-header");
  return {
    header: header.hidden ? null : header.textContent,
    rows: Array.from(s.querySelector(".dl-rows").children).map((li) => {
      if (!li.classList.contains("dl-outline-row")) return li.textContent;
      const button = li.querySelector("button.dl-disclosure");
      return [li.querySelector(".dl-content").textContent, Number(li.dataset.level), !!button,
              !!button && button.getAttribute("aria-expanded") === "true"];
    }),
  };
})"""

def js_literal(value):
    """A JavaScript string literal holding `value` as JSON.stringify writes it."""
    return json.dumps(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def wait_for_dom(page, sections_state, timeout=30000):
    page.wait_for_function(f"JSON.stringify(({DOM_STATE})()) === {js_literal(sections_state)}", timeout=timeout)


COUNTERS = "() => ({ steps: Object.assign({}, window.list.stats.steps), mutations: Object.assign({}, window.mutations), seq: window.list.seq })"


def post_snapshot(server, sections, reload=None, wait=True, reload_sections=None):
    body = {"sections": [{"id": sid, "items": [{"id": i, "text": t} for i, t in items]} for sid, items in sections]}
    if reload:
        body["reload"] = reload
    if reload_sections:
        body["reloadSections"] = reload_sections
    return server.post("/test/apply" + ("" if wait else "?wait=0"), body)


def expected_flat(sections):
    return [{"header": "Section " + sid, "rows": [t for _, t in items]} for sid, items in sections]


def lis_length(values):
    """Length of the longest increasing subsequence (patience sorting)."""
    import bisect

    tails = []
    for v in values:
        k = bisect.bisect_left(tails, v)
        tails[k:k + 1] = [v]
    return len(tails)


def minimal_moves(old, new):
    """The fewest item moves from `old` to `new` (sections in the same relative order): an item
    kept in its section moves unless it lies on a longest increasing run; an item that changes
    between two surviving sections always moves."""
    old_sections = {sid for sid, _ in old}
    new_sections = {sid for sid, _ in new}
    where = {item: (sid, index) for sid, items in old for index, (item, _) in enumerate(items)}
    moves = 0
    for sid, items in new:
        if sid not in old_sections:
            continue
        stayed = []
        for item, _ in items:
            if item not in where:
                continue
            old_sid, index = where[item]
            if old_sid == sid:
                stayed.append(index)
            elif old_sid in new_sections:
                moves += 1
        moves += len(stayed) - lis_length(stayed)
    return moves


def delta(before, after, key):
    return {k: after[key].get(k, 0) - before[key].get(k, 0) for k in set(before[key]) | set(after[key])}


# Tags every section element and row node with the identifier it shows (in a WeakMap, so a
# node made later has none); READ_TAGS gives, per section, its element's tag and its rows' tags.
TAG_NODES = """(ids) => {
  window.sectionTags = new WeakMap(); window.rowTags = new WeakMap();
  document.querySelectorAll("#list > section.dl-section").forEach((s, k) => {
    window.sectionTags.set(s, ids[k][0]);
    Array.from(s.querySelector(".dl-rows").children).forEach((li, j) => window.rowTags.set(li, ids[k][1][j]));
  });
}"""
READ_TAGS = """() => Array.from(document.querySelectorAll("#list > section.dl-section")).map((s) => [
  window.sectionTags.has(s) ? window.sectionTags.get(s) : null,
  Array.from(s.querySelector(".dl-rows").children).map((li) => window.rowTags.has(li) ? window.rowTags.get(li) : null)])"""


def tag_nodes(page, sections):
    page.evaluate(TAG_NODES, [[sid, [item for item, _ in items]] for sid, items in sections])


def identity_problems(previous, sections, tags, steps, reload=(), reload_sections=()):
    """What the nodes after an apply got wrong, given the tags set before it.

    Sections: each element shows the section it was made for; exactly one new element per
    section insert or reload step ("I", "R"), so a section moved ("M") keeps its element; a
    reloaded section is new. (The data source sends a moved section that rows enter or leave as
    a delete + insert: UIKit's rule I5 in docs/BATCH_UPDATE_RULES.md.) Rows: in a section with a
    new element every row is new; in a kept one, a new identifier has a new node, and a row
    whose identifier survived, not reloaded, from a kept section keeps its node, unless it
    changed between two sections at equal old and new indices (sent as delete + insert, I8)."""
    old_index = {sid: k for k, (sid, _) in enumerate(previous)}
    where = {item: sid for sid, items in previous for item, _ in items}
    kept = {sid for (sid, _), (tag, _) in zip(sections, tags) if tag == sid}
    problems = []
    new_elements = sum(1 for tag, _ in tags if tag is None)
    if new_elements != steps["I"] + steps["R"]:
        problems.append(f"{new_elements} new section elements for {steps['I']} inserts and {steps['R']} reloads")
    for index, ((sid, items), (section_tag, row_tags)) in enumerate(zip(sections, tags)):
        if section_tag is not None and section_tag != sid:
            problems.append(f"section {sid} shown in the element of {section_tag!r}")
        if sid in reload_sections and section_tag is not None:
            problems.append(f"reloaded section {sid} kept its element")
        if sid not in kept:
            if any(t is not None for t in row_tags):
                problems.append(f"new section element {sid} holds old rows: {row_tags}")
            continue
        for (item, _), tag in zip(items, row_tags):
            if item not in where:
                if tag is not None:
                    problems.append(f"new row {item} in {sid} reuses the node of {tag!r}")
            elif (item not in reload and where[item] in kept
                  and (where[item] == sid or old_index[where[item]] != index) and tag != item):
                problems.append(f"row {item} ({where[item]} -> {sid}) has node {tag!r}")
    return problems


def check_apply(page, server, previous, sections, reload=None, reload_sections=None):
    """Posts one snapshot; the DOM must equal it, the node changes must be exactly the steps'
    (deletes + inserts + 2 x moves + 2 x reloads), every surviving row and section must keep
    its node (identity_problems), and the moves must be the fewest: exactly when the sections
    stay as they were, else at most that (a section sent anew takes its rows' moves along)."""
    tag_nodes(page, previous)
    before = page.evaluate(COUNTERS)
    post_snapshot(server, sections, reload, reload_sections=reload_sections)
    after = page.evaluate(COUNTERS)
    shown, expected = page.evaluate(DOM_STATE), expected_flat(sections)
    assert shown == expected, first_row_difference(shown, expected)
    steps = delta(before, after, "steps")
    mutations = delta(before, after, "mutations")
    assert mutations["rows"] == steps["d"] + steps["i"] + 2 * steps["m"] + 2 * steps["r"], (steps, mutations)
    assert mutations["sections"] == steps["D"] + steps["I"] + 2 * steps["M"] + 2 * steps["R"], (steps, mutations)
    problems = identity_problems(previous, sections, page.evaluate(READ_TAGS), steps, reload or (), reload_sections or ())
    assert not problems, f"{len(problems)} nodes wrong: {problems[:5]}"
    fewest = minimal_moves(previous, sections)
    if [sid for sid, _ in previous] == [sid for sid, _ in sections] and not reload_sections:
        assert steps["m"] == fewest, (steps, previous, sections)
    else:
        assert steps["m"] <= fewest, (steps, previous, sections)
    return steps


def mutate(rng, sections, pool, version):
    """A random next snapshot: deletes, inserts, moves within and across sections, text changes."""
    sections = [(sid, list(items)) for sid, items in sections]
    shown = {item for _, items in sections for item, _ in items}
    for _ in range(rng.randint(0, 4)):  # deletes
        candidates = [s for s in sections if s[1]]
        if candidates:
            items = rng.choice(candidates)[1]
            items.pop(rng.randrange(len(items)))
    shown = {item for _, items in sections for item, _ in items}
    for _ in range(rng.randint(0, 4)):  # inserts of items not shown
        free = [p for p in pool if p not in shown]
        if free and sections:
            item = rng.choice(free)
            shown.add(item)
            items = rng.choice(sections)[1]
            items.insert(rng.randint(0, len(items)), (item, f"item {item} v{version}"))
    for _ in range(rng.randint(0, 5)):  # moves, possibly across sections
        source = [s for s in sections if s[1]]
        if source:
            items = rng.choice(source)[1]
            entry = items.pop(rng.randrange(len(items)))
            target = rng.choice(sections)[1]
            target.insert(rng.randint(0, len(target)), entry)
    for _ in range(rng.randint(0, 3)):  # text changes (same id: reconfigure)
        source = [s for s in sections if s[1]]
        if source:
            items = rng.choice(source)[1]
            k = rng.randrange(len(items))
            items[k] = (items[k][0], f"item {items[k][0]} v{version}")
    return sections


def reshape_sections(rng, sections, pool, version):
    """Section changes for the seeded test: sections moved (up and down), a new one inserted at a
    random place, one deleted; each with some probability."""
    sections = [(sid, list(items)) for sid, items in sections]
    if len(sections) > 1 and rng.random() < 0.35:
        for _ in range(rng.randint(1, 2)):
            moved = sections.pop(rng.randrange(len(sections)))
            sections.insert(rng.randint(0, len(sections)), moved)
    ids = [sid for sid, _ in sections]
    missing = [sid for sid in "ABCDEF" if sid not in ids]
    if missing and rng.random() < 0.15:
        shown = {i for _, items in sections for i, _ in items}
        fresh = [p for p in pool if p not in shown][:rng.randint(0, 3)]
        sections.insert(rng.randint(0, len(sections)), (rng.choice(missing), [(p, f"item {p} v{version}") for p in fresh]))
    if len(sections) > 1 and rng.random() < 0.15:
        sections.pop(rng.randrange(len(sections)))
    return sections


def test_seeded_flat_and_sectioned_sequences(page, server):
    """160 seeded snapshots (80 flat, 80 in up to six sections that move, come and go), some
    with rows or sections reloaded. After every one the DOM is the snapshot, every surviving
    row and section kept its node, and the row moves are the fewest."""
    rng = random.Random(27)
    total = {"m": 0, "M": 0, "I": 0, "D": 0, "R": 0, "r": 0}
    for layout in ("flat", "sectioned"):
        pool = [f"{layout[0]}{n}" for n in range(60)]
        if layout == "flat":
            current = [("main", [(p, f"item {p} v0") for p in pool[:25]])]
        else:
            current = [(sid, [(p, f"item {p} v0") for p in pool[k * 6:k * 6 + 5]]) for k, sid in enumerate("ABC")]
        post_snapshot(server, current)
        assert page.evaluate(DOM_STATE) == expected_flat(current)
        for version in range(1, 81):
            nxt = current
            if layout == "sectioned":
                nxt = reshape_sections(rng, nxt, pool, version)
            # Some applies change sections only: a moved section that rows enter or leave goes as
            # a delete + insert, so these are where "M" steps come from.
            if layout == "flat" or rng.random() < 0.7:
                nxt = mutate(rng, nxt, pool, version)
            # Reloads of rows and sections on both sides of the apply (a reload names what is there
            # now and was there before).
            old_items = {item for _, items in current for item, _ in items}
            kept = [item for _, items in nxt for item, _ in items if item in old_items]
            reload = rng.sample(kept, min(len(kept), rng.choice([0, 0, 0, 1, 2])))
            kept_sections = [sid for sid, _ in nxt if sid in {s for s, _ in current}]
            reload_sections = [rng.choice(kept_sections)] if kept_sections and layout == "sectioned" and rng.random() < 0.1 else []
            steps = check_apply(page, server, current, nxt, reload=reload, reload_sections=reload_sections)
            for kind in total:
                total[kind] += steps.get(kind, 0)
            current = nxt
    # The sequences really moved rows and sections, and inserted, deleted and reloaded them.
    assert total["m"] > 50 and total["M"] >= 10 and min(total.values()) > 0, total


def section_rows(sid, count, version=0):
    return [(f"{sid.lower()}{n}", f"{sid.lower()}{n} v{version}") for n in range(count)]


def test_sections_move_down_up_and_several_at_once(page, server):
    """Section moves ("M") down, up and several in one apply, alone and with rows moving
    across sections: the DOM is the snapshot after each, and every section element and row
    node is kept (check_apply)."""
    a, b, c, d, e = (section_rows(sid, 3) for sid in "ABCDE")
    current = [("A", a), ("B", b), ("C", c)]
    post_snapshot(server, current)
    for nxt in ([("B", b), ("C", c), ("A", a)],  # A moves down past two
                [("A", a), ("B", b), ("C", c)],  # and back up
                [("A", a), ("C", c), ("B", b)],  # one down by one
                [("C", c), ("A", a), ("B", b)]):  # one up by two
        steps = check_apply(page, server, current, nxt)
        assert steps["M"] == 1 and steps["D"] == steps["I"] == steps["R"] == 0, steps
        current = nxt
    five = [("A", a), ("B", b), ("C", c), ("D", d), ("E", e)]
    check_apply(page, server, current, five)
    several = [five[k] for k in (4, 2, 0, 3, 1)]
    steps = check_apply(page, server, five, several)
    assert steps["M"] >= 2 and steps["I"] == 0, steps
    steps = check_apply(page, server, several, five[::-1])
    assert steps["M"] >= 2 and steps["I"] == 0, steps
    check_apply(page, server, five[::-1], five)
    # D moves up while rows move between and inside the sections that stay in order.
    crossing = [("D", d), ("A", [a[0], b[1], a[2]]), ("B", [b[0], a[1], b[2], e[0]]), ("C", [c[2], c[0], c[1]]),
                ("E", [e[1], e[2]])]
    steps = check_apply(page, server, five, crossing)
    assert steps["M"] == 1 and steps["m"] >= 3 and steps["I"] == 0, steps
    # Sections that move while rows enter and leave them (sent as delete + insert).
    shuffled = [("E", [e[0], a[1], e[1], e[2]]), ("C", [c[2], c[0], b[2], c[1]]), ("A", [a[0], a[2], d[0]]),
                ("D", [d[1], d[2]]), ("B", [b[0], b[1], ("new", "new v1")])]
    check_apply(page, server, crossing, shuffled)
    check_apply(page, server, shuffled, shuffled[::-1])


def test_section_reload_replaces_that_section_only(page, server):
    """A section reload ("R") sends the section again: its rows show the new text, and the
    other sections, moved in the same apply, keep their elements and row nodes."""
    a, b, c = (section_rows(sid, 3) for sid in "ABC")
    current = [("A", a), ("B", b), ("C", c)]
    post_snapshot(server, current)
    b2 = section_rows("B", 3, version=2)
    nxt = [("A", a), ("B", b2), ("C", c)]
    steps = check_apply(page, server, current, nxt, reload_sections=["B"])
    assert steps["R"] == 1 and steps["c"] == 0, steps  # the new texts came with the section
    moved = [("C", c), ("B", section_rows("B", 4, version=3)), ("A", a)]
    steps = check_apply(page, server, nxt, moved, reload_sections=["B"])
    assert steps["R"] + steps["I"] >= 1, steps
    # The reloaded section's rows are new nodes (the section came whole).
    tags = page.evaluate(READ_TAGS)
    assert tags[1][1] == [None] * 4, tags


def outline_rows(nodes, roots):
    """The rows an outline shows: depth-first, below expanded parents only."""
    rows = []

    def visit(node_id, level):
        node = nodes[node_id]
        has_children = bool(node["children"])
        expanded = node["expanded"] and has_children
        rows.append([node["text"], level, has_children, expanded])
        if expanded:
            for child in node["children"]:
                visit(child, level + 1)

    for root in roots:
        visit(root, 0)
    return rows


def outline_entries(nodes, roots):
    entries = []

    def visit(node_id, parent):
        node = nodes[node_id]
        entries.append({"item": {"id": node_id, "text": node["text"]}, "parent": parent,
                        "expanded": node["expanded"] and bool(node["children"])})
        for child in node["children"]:
            visit(child, node_id)

    for root in roots:
        visit(root, None)
    return entries


def first_row_difference(shown, expected):
    """Where two DOM_STATE results part, in words (pytest's own diff of long lists is cut short)."""
    if len(shown) != len(expected):
        return f"{len(shown)} sections shown, {len(expected)} expected"
    for section, (a, b) in enumerate(zip(shown, expected)):
        if a["header"] != b["header"]:
            return f"section {section}: header {a['header']!r}, expected {b['header']!r}"
        for row, (x, y) in enumerate(zip(a["rows"], b["rows"])):
            if x != y:
                return f"section {section} row {row}: shown {x}, expected {y}"
        if len(a["rows"]) != len(b["rows"]):
            return f"section {section}: {len(a['rows'])} rows shown, {len(b['rows'])} expected"
    return "no difference"


def test_seeded_outline_sequence(page, server):
    """60 seeded outlines: children added and removed, parents expanded and collapsed."""
    rng = random.Random(2027)
    nodes, roots, next_id = {}, [], 0
    for version in range(60):
        for _ in range(rng.randint(1, 3)):
            node_id = f"n{next_id}"
            next_id += 1
            parents = list(nodes)
            parent = rng.choice(parents) if parents and rng.random() < 0.7 else None
            nodes[node_id] = {"text": f"node {node_id} v{version}", "children": [], "expanded": rng.random() < 0.5}
            siblings = nodes[parent]["children"] if parent else roots
            siblings.insert(rng.randint(0, len(siblings)), node_id)
        leaves = [n for n in nodes if not nodes[n]["children"]]
        for _ in range(rng.randint(0, 2)):
            if len(leaves) > 3:
                leaf = leaves.pop(rng.randrange(len(leaves)))
                for node in nodes.values():
                    if leaf in node["children"]:
                        node["children"].remove(leaf)
                if leaf in roots:
                    roots.remove(leaf)
                del nodes[leaf]
        for node_id in rng.sample(list(nodes), min(3, len(nodes))):
            nodes[node_id]["expanded"] = not nodes[node_id]["expanded"]
        for node_id in rng.sample(list(nodes), min(2, len(nodes))):
            nodes[node_id]["text"] = f"node {node_id} v{version}"
        before = page.evaluate(COUNTERS)
        server.post("/test/outline", {"section": "O", "entries": outline_entries(nodes, roots)})
        after = page.evaluate(COUNTERS)
        shown, expected = page.evaluate(DOM_STATE), [{"header": "Section O", "rows": outline_rows(nodes, roots)}]
        assert shown == expected, f"version {version}: " + first_row_difference(shown, expected)
        steps, mutations = delta(before, after, "steps"), delta(before, after, "mutations")
        assert mutations["rows"] == steps["d"] + steps["i"] + 2 * steps["m"] + 2 * steps["r"], (steps, mutations)


def test_disclosure_click_runs_section_snapshot_handlers(page, server):
    """A click on a disclosure control goes to the server: the handler loads children lazily."""
    entries = [
        {"item": {"id": "p", "text": "parent p", "expandable": True}, "parent": None},
        {"item": {"id": "q", "text": "parent q"}, "parent": None},
        {"item": {"id": "q1", "text": "child q1"}, "parent": "q"},
        {"item": {"id": "r", "text": "root r"}, "parent": None},
    ]
    server.post("/test/outline", {"section": "O", "entries": entries})
    assert page.evaluate(DOM_STATE)[0]["rows"] == [
        ["parent p", 0, True, False], ["parent q", 0, True, False], ["root r", 0, False, False]]

    def click_and_wait(row_text, rows):
        seq = page.evaluate("window.list.seq")
        page.locator(".dl-row", has_text=row_text).locator("button.dl-disclosure").first.click()
        page.wait_for_function(f"window.list.seq > {seq}")
        page.wait_for_function(f"JSON.stringify(({DOM_STATE})()[0].rows) === {js_literal(rows)}")

    click_and_wait("parent p", [["parent p", 0, True, True], ["parent p · child 1", 1, False, False],
                                ["parent p · child 2", 1, False, False], ["parent p · child 3", 1, False, False],
                                ["parent q", 0, True, False], ["root r", 0, False, False]])
    click_and_wait("parent q", [["parent p", 0, True, True], ["parent p · child 1", 1, False, False],
                                ["parent p · child 2", 1, False, False], ["parent p · child 3", 1, False, False],
                                ["parent q", 0, True, True], ["child q1", 1, False, False], ["root r", 0, False, False]])
    click_and_wait("parent p", [["parent p", 0, True, False], ["parent q", 0, True, True],
                                ["child q1", 1, False, False], ["root r", 0, False, False]])


def test_moved_row_keeps_node_and_focus(page, server):
    """A moved row is the same node (a marker survives) and the field inside it keeps focus."""
    items = [(f"k{n}", f"row {n}") for n in range(10)]
    items[4] = ("k4", "[input] field")
    post_snapshot(server, [("main", items)])
    page.evaluate("() => document.querySelectorAll('#list .dl-row').forEach((li, i) => { li.marker = 'm' + i; })")
    field = page.locator("input.row-input")
    field.click()
    field.type("typed")
    reordered = [items[4]] + items[:4] + items[5:]
    reordered.reverse()  # the field's row moves, and so do most others
    post_snapshot(server, [("main", reordered)])
    state = page.evaluate("""() => ({
        markers: Array.from(document.querySelectorAll('#list .dl-row')).map((li) => li.marker),
        focused: document.activeElement && document.activeElement.classList.contains('row-input'),
        value: document.querySelector('input.row-input').value })""")
    original = [k for k, _ in items]
    assert state["markers"] == [f"m{original.index(k)}" for k, _ in reordered]
    assert state["focused"] is True
    assert state["value"].endswith("typed")


def test_a_re_sort_goes_as_one_new_order_keeping_nodes_and_focus(page, server):
    """A batch that moves most of a big section's rows is sent as one "o" step: the DOM is the
    snapshot, every kept row is its old node, the field inside one keeps focus and text, rows
    deleted are gone and rows inserted are new. The other section, changed a little in the
    same batch, still goes as single steps."""
    rng = random.Random(31)
    big = [(f"k{n}", f"row {n}") for n in range(1500)]
    big[700] = ("k700", "[input] field")
    small = [(f"s{n}", f"small {n}") for n in range(20)]
    post_snapshot(server, [("big", big), ("small", small)])
    page.evaluate("() => document.querySelectorAll('#list .dl-section')[0].querySelectorAll('.dl-row').forEach((li, i) => { li.marker = 'm' + i; })")
    field = page.locator("input.row-input")
    field.click()
    field.type("typed")
    resorted = big[:]
    rng.shuffle(resorted)
    gone = {key for key, _ in rng.sample(resorted, 10) if key != "k700"}
    resorted = [row for row in resorted if row[0] not in gone]
    for n in range(10):
        resorted.insert(rng.randrange(len(resorted) + 1), (f"new{n}", f"new row {n}"))
    small_after = small[1:] + [("s20", "small 20")]
    before = page.evaluate(COUNTERS)
    post_snapshot(server, [("big", resorted), ("small", small_after)])
    after = page.evaluate(COUNTERS)
    steps = delta(before, after, "steps")
    assert steps.get("o") == 1 and steps.get("m", 0) == 0, steps
    assert steps.get("d") == 1 and steps.get("i") == 1, steps  # the small section's own steps
    state = page.evaluate("""() => ({
        rows: Array.from(document.querySelectorAll('#list .dl-section')).map((s) =>
            Array.from(s.querySelectorAll('.dl-row')).map((li) => li.marker || null)),
        focused: document.activeElement && document.activeElement.classList.contains('row-input'),
        value: document.querySelector('input.row-input').value })""")
    original = {key: n for n, (key, _) in enumerate(big)}
    assert state["rows"][0] == [f"m{original[k]}" if k in original else None for k, _ in resorted]
    assert state["focused"] is True and state["value"].endswith("typed")
    # The field's row shows no text of its own (its markup is an input).
    expected = expected_flat([("big", [(k, "" if k == "k700" else t) for k, t in resorted]), ("small", small_after)])
    shown = page.evaluate(DOM_STATE)
    assert shown == expected, first_row_difference(shown, expected)


def test_reconfigure_keeps_node_and_reload_replaces_it(page, server):
    items = [("a", "alpha"), ("b", "beta"), ("c", "gamma")]
    post_snapshot(server, [("main", items)])
    page.evaluate("() => document.querySelectorAll('#list .dl-row').forEach((li) => { li.marker = li.textContent; })")
    before = page.evaluate(COUNTERS)
    post_snapshot(server, [("main", [("a", "alpha"), ("b", "beta 2"), ("c", "gamma")])])
    after = page.evaluate(COUNTERS)
    assert delta(before, after, "steps")["c"] == 1
    assert page.evaluate("() => Array.from(document.querySelectorAll('#list .dl-row')).map((li) => [li.marker, li.textContent])") == [
        ["alpha", "alpha"], ["beta", "beta 2"], ["gamma", "gamma"]]
    post_snapshot(server, [("main", [("a", "alpha"), ("b", "beta 2"), ("c", "gamma")])], reload=["c"])
    assert page.evaluate("() => Array.from(document.querySelectorAll('#list .dl-row')).map((li) => li.marker || null)") == [
        "alpha", "beta", None]
    assert page.evaluate(DOM_STATE) == expected_flat([("main", [("a", "alpha"), ("b", "beta 2"), ("c", "gamma")])])


def test_moved_and_changed_row_goes_as_one_move_keeping_its_node(page, server):
    post_snapshot(server, [("main", [("a", "alpha"), ("b", "beta"), ("c", "gamma")])])
    page.evaluate("() => document.querySelectorAll('#list .dl-row').forEach((li) => { li.marker = li.textContent; })")
    before = page.evaluate(COUNTERS)
    post_snapshot(server, [("main", [("c", "gamma 2"), ("a", "alpha"), ("b", "beta")])])
    steps = delta(before, page.evaluate(COUNTERS), "steps")
    # c moves and changes: one move step carrying its new content, no reconfigure step.
    assert steps["m"] == 1 and steps["c"] == 0, steps
    assert page.evaluate("() => Array.from(document.querySelectorAll('#list .dl-row')).map((li) => [li.marker, li.textContent])") == [
        ["gamma", "gamma 2"], ["alpha", "alpha"], ["beta", "beta"]]


def test_100_rapid_applies_end_at_the_last_snapshot(page, server):
    """Applies sent without waiting coalesce behind the browser; the last one wins."""
    rng = random.Random(100)
    pool = [f"r{n}" for n in range(300)]
    current = [("main", [(p, f"item {p} v0") for p in pool[:200]])]
    post_snapshot(server, current)
    messages_before = page.evaluate("window.list.stats.messages")
    for version in range(1, 101):
        current = mutate(rng, current, pool, version)
        post_snapshot(server, current, wait=False)
    wait_for_dom(page, expected_flat(current), timeout=30000)
    sent = page.evaluate("window.list.stats.messages") - messages_before
    assert 1 <= sent <= 100 * 2  # at most a structural and a refresh batch per apply
    stats = json.loads(server.get("/test/stats"))
    assert len(stats) == 1 and stats[0]["batchesInFlight"] <= 2


HOSTILE = [
    "<script>window.pwned = 'script'</script>",
    "<img src=x onerror=\"window.pwned = 'img'\">",
    "\"quoted\" & 'single' </li><li>break out",
    "<svg onload=\"window.pwned = 'svg'\"></svg>",
]


def test_hostile_texts_render_as_text(page, server):
    big = "<b>" + "x" * (1 << 20) + "</b>"
    invalid = base64.b64encode(b"bad \xff\xfe utf-8 \xc3").decode()
    body = {"sections": [{"id": "main", "items": [{"id": f"h{n}", "text": t} for n, t in enumerate(HOSTILE)]
                          + [{"id": "big", "text": big}, {"id": "bad", "textBase64": invalid}]}]}
    server.post("/test/apply", body)
    rows = page.evaluate(DOM_STATE)[0]["rows"]
    assert rows[:len(HOSTILE)] == HOSTILE
    assert rows[len(HOSTILE)] == big
    assert rows[-1] == "bad \ufffd\ufffd utf-8 \ufffd"
    assert page.evaluate("() => window.pwned === undefined")
    assert page.evaluate("() => document.querySelectorAll('#list img, #list script, #list svg, #list b').length") == 0
    # Reconfigured with hostile text too (in-place update path).
    body["sections"][0]["items"][0]["text"] = "<img src=y onerror=\"window.pwned = 'reconfigure'\">"
    server.post("/test/apply", body)
    assert page.evaluate("() => window.pwned === undefined")


def test_missed_message_and_dropped_connection_recover_with_a_reload(page, server):
    items = [(f"g{n}", f"row {n}") for n in range(20)]
    post_snapshot(server, [("main", items)])
    reloads = page.evaluate("window.list.stats.reloads")
    # A lost message: the next one has a gap, the client asks for the whole list.
    page.evaluate("window.list.dropNextBatch = 1")
    post_snapshot(server, [("main", items[5:])], wait=False)
    post_snapshot(server, [("main", items[7:] + items[:3])], wait=False)
    wait_for_dom(page, expected_flat([("main", items[7:] + items[:3])]))
    page.wait_for_function(f"window.list.stats.reloads > {reloads}")
    assert page.evaluate("window.list.stats.gaps") >= 1
    # A dropped connection: changes made meanwhile arrive as a reload after reconnecting.
    page.evaluate("window.list.socket.close()")
    page.wait_for_function("window.list.statusText !== 'live'")
    post_snapshot(server, [("main", items[::-1])], wait=False)
    wait_for_dom(page, expected_flat([("main", items[::-1])]), timeout=15000)
    assert page.evaluate("window.list.statusText") == "live"
    # And it diffs again afterwards.
    check_apply(page, server, [("main", items[::-1])], [("main", items[::-2])])


def test_invalid_messages_get_clear_errors(page, server):
    """Messages the server cannot follow are answered with an error naming the problem."""
    post_snapshot(server, [("main", [("a", "alpha")])])
    answers = page.evaluate(
        """async () => {
        const socket = new WebSocket(location.href.replace(/^http/, "ws") + "list/ws");
        const errors = [];
        socket.onmessage = (event) => { const m = JSON.parse(event.data); if (m.t === "error") errors.push(m); };
        await new Promise((resolve) => { socket.onopen = resolve; });
        const closed = new Promise((resolve) => {
          socket.onclose = (event) => resolve(event.code);
          setTimeout(() => resolve("still open"), 10000);
        });
        for (const text of ["not json", "[1,2]", '{"t":"nope"}', '{"t":"ack"}', '{"t":"ack","seq":999}',
                            '{"t":"toggle","seq":1,"section":9,"item":0}', '{"t":"toggle","seq":0,"section":0,"item":0}',
                            '{"t":"filter","text":"' + "y".repeat(300) + '"}'])
          socket.send(text);
        socket.send(new Uint8Array([1, 2, 3]));
        await new Promise((resolve) => setTimeout(resolve, 500));
        const before = errors.length;
        socket.send("z".repeat(10000));
        const code = await closed;
        return { errors: errors.slice(0, before), last: errors.slice(before), code: code };
      }"""
    )
    # Acks and clicks are answered from the client's queue, the rest at once: compare as sets.
    codes = sorted(e["code"] for e in answers["errors"])
    assert codes == sorted(["malformed", "malformed", "unknown-type", "malformed", "unknown-sequence",
                            "unknown-row", "stale-sequence", "too-large", "binary-frame"]), answers
    assert all(e["message"] for e in answers["errors"])
    assert any("999" in e["message"] for e in answers["errors"] if e["code"] == "unknown-sequence")
    assert [e["code"] for e in answers["last"]] == ["too-large"] and "10000 bytes" in answers["last"][0]["message"]
    assert answers["code"] != "still open"  # the oversized message closed the connection
    # The page's own list is unaffected.
    check_apply(page, server, [("main", [("a", "alpha")])], [("main", [("b", "beta"), ("a", "alpha")])])


def test_slow_client_costs_one_pending_batch(page, server):
    """A client that never acknowledges gets one batch; the applies behind it coalesce."""
    items = [(f"s{n}", f"row {n}") for n in range(100)]
    post_snapshot(server, [("main", items)])
    page.evaluate(
        """() => new Promise((resolve) => {
        window.silent = new WebSocket(location.href.replace(/^http/, "ws") + "list/ws");
        window.silentMessages = 0;
        window.silent.onmessage = () => { window.silentMessages++; };
        window.silent.onopen = resolve; })"""
    )
    page.wait_for_function("window.silentMessages >= 1", timeout=10000)  # its reload
    rng = random.Random(5)
    for _ in range(50):
        rng.shuffle(items)
        post_snapshot(server, [("main", list(items))], wait=False)  # (waiting would wait for the silent one)
    wait_for_dom(page, expected_flat([("main", items)]))
    # The page's own client may not have acknowledged its last batch yet when its rows are
    # already shown: wait until the silent client is the only one with a batch in flight
    # (picking the one with the most in flight chose the page's client when both had one).
    deadline = time.monotonic() + 10
    while True:
        waiting = [s for s in json.loads(server.get("/test/stats")) if s["batchesInFlight"] > 0]
        if len(waiting) <= 1 or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    assert len(waiting) == 1, waiting
    silent = waiting[0]
    assert silent["batchesInFlight"] == 1
    assert silent["messagesSent"] == 2  # its reload and one batch; 49 applies wait, coalesced
    assert page.evaluate("window.silentMessages") == 2
    page.evaluate("window.silent.close()")


def test_filter_as_you_type(page, server):
    items = [(f"f{n}", f"{'apple' if n % 3 == 0 else 'pear'} {n}") for n in range(30)]
    post_snapshot(server, [("main", items)])
    page.evaluate("window.list.setFilter('apple')")
    wait_for_dom(page, expected_flat([("main", [i for i in items if "apple" in i[1]])]))
    page.evaluate("window.list.setFilter('')")
    wait_for_dom(page, expected_flat([("main", items)]))


def upgrade_status(server, origin):
    host = urllib.parse.urlparse(server.url).netloc
    request = (f"GET /list/ws HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\nConnection: Upgrade\r\n"
               "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
    parsed = urllib.parse.urlparse(server.url)
    with socket.create_connection((parsed.hostname, parsed.port), timeout=10) as conn:
        conn.sendall(request.encode())
        data = b""
        while b"\r\n" not in data:
            chunk = conn.recv(200)
            if not chunk:
                break
            data += chunk
    # Only the status line is text: the server's first WebSocket frame (binary) may follow the
    # headers in the same read, which decoding the whole read as UTF-8 failed on.
    return data.split(b"\r\n", 1)[0].decode("ascii", errors="replace")


def test_websocket_checks_origin(server):
    assert "101" in upgrade_status(server, server.base)
    refused = upgrade_status(server, "http://evil.example")
    assert "101" not in refused and ("400" in refused or "403" in refused), refused


def test_demo_page_screenshot(browser):
    """The demo: 10^4 players in eight leagues re-ranked live; a filter; a PNG for the README."""
    import os

    demo = Server("serve", "--rows", "10000")
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        opened = context.new_page()
        opened.goto(demo.url)
        opened.wait_for_function("window.list && window.list.stats.reloads >= 1")
        assert opened.locator(".dl-row").count() == 10000
        assert opened.locator(".dl-section").count() == 8
        opened.wait_for_function("window.list.stats.steps.m > 0", timeout=20000)  # re-ranked live
        opened.fill("#filter", "Kalia")
        opened.wait_for_function("document.querySelectorAll('.dl-row').length < 10000 && document.querySelectorAll('.dl-row').length > 0")
        names = opened.eval_on_selector_all(".dl-row .name", "(els) => els.map((e) => e.textContent)")
        assert names and all("kalia" in n.lower() for n in names)
        # Every "Kalia" is in one league: the others are left out, not shown as empty panels.
        opened.wait_for_function("document.querySelectorAll('.dl-section').length < 8")
        sections = opened.eval_on_selector_all(".dl-section", "(els) => els.map((e) => e.querySelectorAll('.dl-row').length)")
        assert sections and all(count > 0 for count in sections), sections
        # Filtered rows show the player's rank in the league, not the row's position.
        opened.fill("#filter", "ren")
        opened.wait_for_function("document.querySelectorAll('.dl-section').length === 8")
        ranks = opened.eval_on_selector_all(".dl-section", """(els) => els.map((e) =>
            Array.from(e.querySelectorAll('.dl-row .rank')).map((r) => Number(r.textContent)))""")
        assert all(r == sorted(set(r)) and r and r[0] >= 1 for r in ranks), ranks
        assert any(r != list(range(1, len(r) + 1)) for r in ranks), ranks
        assert max(max(r) for r in ranks) > max(len(r) for r in ranks)
        assert urllib.request.urlopen(demo.base + "/favicon.ico", timeout=10).status == 204
        opened.fill("#filter", "")
        opened.wait_for_function("document.querySelectorAll('.dl-row').length === 10000")
        opened.wait_for_timeout(600)
        # Under the build folder, so a test run leaves the clone clean; `make web-screenshot`
        # copies it to docs/web-demo.png.
        out = os.environ.get("WEB_SCREENSHOT", os.path.join(os.path.dirname(__file__), "..", ".build", "web-demo.png"))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        opened.screenshot(path=out)
        assert os.path.getsize(out) > 10000
        context.close()
    finally:
        demo.stop()


def test_example_app(browser):
    """Examples/Minimal, built with the package: its page, its classes, a click that expands."""
    example = Server("example")
    try:
        context = browser.new_context()
        opened = context.new_page()
        opened.goto(example.url)
        opened.wait_for_function("window.today && window.today.stats.reloads >= 1 && window.projects.stats.reloads >= 1")
        opened.wait_for_function("document.querySelectorAll('.dl-section').length === 2")
        assert opened.locator(".dl-list").count() == 2
        assert opened.locator(".dl-header").all_text_contents() == ["Today", "Projects"]
        assert opened.locator("#today .dl-row").count() == 5
        opened.wait_for_function("document.querySelectorAll('#projects .dl-outline-row').length === 2")
        assert opened.locator(".dl-disclosure").count() == 1 and opened.locator(".dl-disclosure-space").count() == 1
        opened.click(".dl-disclosure")
        opened.wait_for_function("document.querySelectorAll('#projects .dl-outline-row').length === 4")
        assert opened.locator("#projects .dl-content").all_text_contents() == ["Garden", "Dig", "Plant", "Bookshelf"]
        assert opened.locator("#projects .dl-outline-row").evaluate_all("(rows) => rows.map((r) => r.dataset.level)") == ["0", "1", "1", "0"]
        # Its rows change every second: a chore is marked done; the filter narrows them.
        opened.wait_for_function("Array.from(document.querySelectorAll('#today .dl-row')).some((r) => r.textContent.startsWith('✓'))",
                                 timeout=10000)
        opened.fill("#filter", "Chore 3")
        opened.wait_for_function("document.querySelectorAll('#today .dl-row').length === 1")
        assert urllib.request.urlopen(example.base + "/favicon.ico", timeout=10).status == 204
        context.close()
    finally:
        example.stop()


def test_many_pages_share_one_view_and_a_silent_one_holds_no_one_back(browser, server):
    """Pages with the same filter share a view; each gets every change; a silent socket does not slow them."""
    context = browser.new_context()
    pages = []
    for _ in range(4):
        opened = context.new_page()
        opened.goto(server.url)
        opened.wait_for_function("window.list && window.list.stats.reloads >= 1")
        pages.append(opened)
    pages[0].evaluate(
        """() => new Promise((resolve) => {
        window.silent = new WebSocket(location.href.replace(/^http/, "ws") + "list/ws");
        window.silent.onopen = resolve; })"""
    )
    pages[3].evaluate("window.list.setFilter('even')")
    rng = random.Random(44)
    pool = [f"v{n}" for n in range(200)]
    current = [("main", [(p, f"{'even' if n % 2 == 0 else 'odd'} {p}") for n, p in enumerate(pool[:150])])]
    for version in range(1, 31):
        current = mutate(rng, current, pool, version)
        post_snapshot(server, current, wait=False)
    for opened in pages[:3]:
        wait_for_dom(opened, expected_flat(current), timeout=30000)
        assert opened.evaluate("window.list.stats.gaps") == 0
    wait_for_dom(pages[3], expected_flat([("main", [i for i in current[0][1] if "even" in i[1]])]), timeout=30000)
    stats = json.loads(server.get("/test/stats"))
    assert len(stats) == 5
    assert sum(1 for s in stats if s["batchesInFlight"] == 1 and s["messagesSent"] <= 2) >= 1  # the silent one
    context.close()
