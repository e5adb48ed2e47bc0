// View patches over the WebSocket (docs/server.md, "View patches"): a connection that sent
// "patches": true in its first message gets, for each new view, {base, rev, patch} in place
// of "view". `patch` is a JSON Patch (RFC 6902: add, remove, replace) from the view whose rev
// is `base` to the view whose rev is `rev`. The server's ecliptic/server/patch.py is the
// reference; tests/test_view_patch.py runs both on the same patches.

function parsePointer(path) {
  if (path === "") return [];
  if (path[0] !== "/") throw new Error(`a JSON Pointer starts with '/': ${path}`);
  return path.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function arrayIndex(array, token, adding) {
  if (token === "-" && adding) return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`${token} is not an array index`);
  const i = Number(token);
  if (i > array.length || (i === array.length && !adding)) {
    throw new Error(`index ${i} is out of the array (length ${array.length})`);
  }
  return i;
}

function isContainer(value) {
  return value !== null && typeof value === "object";
}

function has(object, key) {
  return Object.prototype.hasOwnProperty.call(object, key);
}

function setMember(object, key, value) {
  // defineProperty, so that a member named "__proto__" is a member, as in JSON
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

// `doc` with `ops` applied; `doc` itself is not changed. Throws an Error when an operation does
// not fit the document: the client then asks for the whole view again ({"since": index}).
export function applyPatch(doc, ops) {
  let out = structuredClone(doc);
  for (const op of ops) {
    const tokens = parsePointer(op.path ?? "");
    if (op.op !== "add" && op.op !== "remove" && op.op !== "replace") {
      throw new Error(`unknown patch operation ${op.op}`);
    }
    if (tokens.length === 0) {
      if (op.op === "remove") throw new Error("the whole document cannot be removed");
      out = structuredClone(op.value);
      continue;
    }
    let parent = out;
    for (const token of tokens.slice(0, -1)) {
      if (Array.isArray(parent)) parent = parent[arrayIndex(parent, token, false)];
      else if (isContainer(parent) && has(parent, token)) parent = parent[token];
      else throw new Error(`${op.path} goes through a member that is not there`);
    }
    const last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) {
      const i = arrayIndex(parent, last, op.op === "add");
      if (op.op === "add") parent.splice(i, 0, structuredClone(op.value));
      else if (op.op === "remove") parent.splice(i, 1);
      else parent[i] = structuredClone(op.value);
    } else if (isContainer(parent)) {
      if (op.op !== "add" && !has(parent, last)) throw new Error(`no member ${last} to ${op.op}`);
      if (op.op === "remove") delete parent[last];
      else setMember(parent, last, structuredClone(op.value));
    } else {
      throw new Error(`${op.path} goes through a value that is not an object or array`);
    }
  }
  return out;
}

// The view a message leaves the client with: its whole view, or the patch applied to the view
// it has. Returns null when the patch is for another view than `current` (its rev is not
// `base`): ask for the whole view again.
export function nextView(current, currentRev, message) {
  if (!("patch" in message)) return { view: message.view, rev: message.rev ?? null };
  if (message.base !== currentRev) return null;
  return { view: applyPatch(current, message.patch), rev: message.rev };
}
