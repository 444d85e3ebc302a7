// @ts-check
// Where the editor's files are kept: the learner's own exercises/<name>/
// through the local lab (single-learner mode), or the learner's draft on
// the class server. Both speak JSON (docs/instructors.md, "The editor's API"); a
// backend turns their answers into the few outcomes the editor acts on.

/** @typedef {Record<string, string>} Files */

/**
 * @typedef {object} Snapshot
 * @property {Files} files
 * @property {string} version an opaque tag of what was read ("" for none)
 */

/**
 * @typedef {{kind: "saved", version: string}
 *   | {kind: "conflict", disk: Snapshot}
 *   | {kind: "refused", message: string}} SaveOutcome
 * saved: the files are kept, as version. conflict: the files changed
 * since the version the save was based on (on disk, locally; in another
 * tab or on another machine, in class mode); disk is what is kept now. refused: the server will not keep these files as they are
 * (message says why); saving again unchanged is pointless.
 * A network failure or a server fault throws a SaveError instead: the
 * editor keeps the text and tries again.
 */

/**
 * @typedef {object} Backend
 * @property {() => Promise<Snapshot>} load
 * @property {(files: Files, base: string) => Promise<SaveOutcome>} save
 */

/** SaveError is a save that may succeed if tried again. */
export class SaveError extends Error {}

/**
 * request fetches url with a JSON body and answers the status and the
 * parsed JSON body (null when there is none or it is not JSON). A network
 * failure becomes a SaveError.
 * @param {string} url
 * @param {RequestInit} init
 * @returns {Promise<{status: number, body: any, response: Response}>}
 */
export async function request(url, init) {
  /** @type {Response} */
  let response;
  try {
    response = await fetch(url, { credentials: "same-origin", ...init });
  } catch (err) {
    throw new SaveError("the server cannot be reached (" + (err instanceof Error ? err.message : String(err)) + ")");
  }
  let body = null;
  if ((response.headers.get("Content-Type") || "").includes("json")) {
    body = await response.json().catch(() => null);
  }
  return { status: response.status, body, response };
}

/**
 * problemText is a refusal's message: the server's "error" (or "message")
 * and its "problems", or the HTTP status.
 * @param {number} status
 * @param {any} body
 * @returns {string}
 */
export function problemText(status, body) {
  const head = (body && (body.error || body.message)) || "the server answered " + status;
  const problems = body && Array.isArray(body.problems) ? body.problems : [];
  return problems.length ? head + ": " + problems.join("; ") : head;
}

/**
 * snapshot checks the shape of a {files, version} answer.
 * @param {any} body
 * @returns {Snapshot}
 */
function snapshot(body) {
  if (!body || typeof body.files !== "object" || body.files === null) {
    throw new SaveError("the server's answer holds no files");
  }
  return { files: body.files, version: String(body.version ?? "") };
}

/**
 * localBackend reads and writes exercises/<name>/ through the local lab:
 * GET url → {files, version}; PUT url {files, base} → {version}, or 409
 * with the disk's {files, version} when the disk changed since base.
 * @param {string} url e.g. /api/exercises/gcra/files
 * @returns {Backend}
 */
export function localBackend(url) {
  return {
    async load() {
      const { status, body } = await request(url, { headers: { Accept: "application/json" } });
      if (status !== 200) throw new SaveError(problemText(status, body));
      return snapshot(body);
    },
    async save(files, base) {
      const { status, body } = await request(url, {
        method: "PUT",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ files, base }),
      });
      if (status === 200) return { kind: "saved", version: String(body && body.version) };
      if (status === 409) return { kind: "conflict", disk: snapshot(body) };
      if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
        return { kind: "refused", message: problemText(status, body) };
      }
      throw new SaveError(problemText(status, body));
    },
  };
}

/**
 * classBackend keeps the learner's draft on the class server: GET url →
 * {exercise, files, version, updated_at}; PUT url {files, base} →
 * {version}, or 409 with the draft saved since (another tab or machine)
 * when the draft is no longer version base; 422 {error, problems} when the
 * files break the submission rules. The CSRF token, if any, goes in the
 * X-CSRF-Token header.
 * @param {string} url e.g. /class/api/drafts/gcra
 * @param {string} csrf
 * @returns {Backend}
 */
export function classBackend(url, csrf) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (csrf) headers["X-CSRF-Token"] = csrf;
  return {
    async load() {
      const { status, body } = await request(url, { headers });
      if (status !== 200) throw new SaveError(problemText(status, body));
      return snapshot(body);
    },
    async save(files, base) {
      const { status, body } = await request(url, {
        method: "PUT",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify(base === "" ? { files } : { files, base: Number(base) }),
      });
      if (status === 200) return { kind: "saved", version: String(body && body.version) };
      if (status === 409) return { kind: "conflict", disk: snapshot(body) };
      if (status === 401 || status === 403) {
        return { kind: "refused", message: problemText(status, body) + " (signed out? sign in again in another tab: this text stays here)" };
      }
      if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
        return { kind: "refused", message: problemText(status, body) };
      }
      throw new SaveError(problemText(status, body));
    },
  };
}
