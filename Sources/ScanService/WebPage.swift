import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /`: one small page to try the service in a browser. It is static (HTML, CSS and a
/// script, no build step, nothing from another origin) and holds nothing secret, so it is
/// served without a key; every API call it makes sends the key the user typed, as any
/// other client does. The script fills the page with `textContent` and SVG attributes only,
/// never with HTML parsed from a result, and the Content-Security-Policy allows scripts and
/// styles from this server alone.
extension ExtractionService {
    func addWebPage(to router: Router<BasicRequestContext>) {
        // Made once: whether the page asks for a key is fixed when the server starts.
        let page = WebPage.html(keysRequired: !settings.keys.isEmpty)
        router.get("/") { _, _ in WebPage.response(page, type: "text/html; charset=utf-8") }
        router.get("/web/app.js") { _, _ in WebPage.response(WebPage.script, type: "text/javascript; charset=utf-8") }
        router.get("/web/app.css") { _, _ in WebPage.response(WebPage.style, type: "text/css; charset=utf-8") }
    }
}

enum WebPage {
    /// Scripts, styles and calls to this server only; images from the file the user chose (a
    /// blob: URL); no plugins, frames, forms posted elsewhere or `<base>` changes.
    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' blob:",
        "connect-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    static func response(_ body: String, type: String) -> Response {
        var headers: HTTPFields = [.contentType: type]
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[.xFrameOptions] = "DENY"
        headers[.referrerPolicy] = "no-referrer"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// The page; `data-keys` tells the script whether to ask for an API key.
    static func html(keysRequired: Bool) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>scanextract</title>
        <link rel="stylesheet" href="/web/app.css">
        <script src="/web/app.js" defer></script>
        </head>
        <body data-keys="\(keysRequired ? "required" : "none")">
        <header>
          <h1>scanextract</h1>
          <p>Drop a receipt, a business card, a photo or a PDF: see its text, boxes and fields.</p>
          <a href="/openapi.yaml">API</a>
        </header>
        <main>
          <section id="controls" aria-label="Upload">
            <div id="key-row" hidden>
              <label for="api-key">API key</label>
              <input id="api-key" type="password" autocomplete="off" spellcheck="false" placeholder="the server's bearer key">
              <button id="forget-key" type="button">Forget</button>
            </div>
            <div id="drop" tabindex="0">
              <span>Drop a file here, or</span>
              <label class="button" for="file">choose one</label>
              <input id="file" type="file" accept="image/*,.tif,.tiff,.heic,.heif,.avif,application/pdf,application/json,.json">
            </div>
            <div id="options">
              <label>Type
                <select id="type">
                  <option value="">detect</option>
                  <option value="receipt">receipt</option>
                  <option value="businessCard">business card</option>
                  <option value="other">other</option>
                </select>
              </label>
              <label>Country <input id="country" maxlength="2" size="3" placeholder="US" spellcheck="false"></label>
            </div>
            <p id="status" role="status" aria-live="polite" data-state="idle">No file yet.</p>
            <div id="problem" role="alert" hidden><strong id="problem-title"></strong> <span id="problem-detail"></span></div>
          </section>
          <section id="result" hidden aria-label="Result">
            <div id="pages"></div>
            <aside id="fields">
              <h2 id="doc-type"></h2>
              <dl id="field-list"></dl>
              <table id="items" hidden>
                <thead><tr><th>Item</th><th>Qty</th><th>Price</th><th>Amount</th></tr></thead>
                <tbody></tbody>
              </table>
              <details id="entities-box"><summary>Detected data</summary><ul id="entities"></ul></details>
              <details id="text-box"><summary>Text</summary><pre id="text"></pre></details>
              <ul id="warnings"></ul>
              <p><button id="download" type="button">Download JSON</button></p>
            </aside>
          </section>
        </main>
        </body>
        </html>

        """
    }

    static let style = #"""
    :root { --ink: #1d2330; --muted: #5d6575; --line: #d8dce4; --accent: #1f6feb; --field: #e8590c; --bg: #f6f7f9; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: var(--ink); background: var(--bg); }
    header { display: flex; align-items: baseline; gap: 1rem; padding: .8rem 1.5rem; background: #fff; border-bottom: 1px solid var(--line); }
    header h1 { font-size: 1.2rem; margin: 0; }
    header p { margin: 0; color: var(--muted); flex: 1; }
    header a { color: var(--accent); }
    main { padding: 1rem 1.5rem; max-width: 1400px; margin: 0 auto; }
    #controls { display: grid; gap: .6rem; }
    #key-row, #options { display: flex; gap: .6rem; align-items: center; flex-wrap: wrap; }
    input, select, button { font: inherit; }
    input[type=password], #country, select { padding: .3rem .5rem; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
    #api-key { width: 22rem; max-width: 100%; }
    button, .button { padding: .3rem .8rem; border: 1px solid var(--accent); border-radius: 6px; background: #fff; color: var(--accent); cursor: pointer; }
    button:hover, .button:hover { background: #eef4ff; }
    #drop { display: flex; gap: .6rem; align-items: center; justify-content: center; padding: 1.6rem; border: 2px dashed var(--line); border-radius: 10px; background: #fff; color: var(--muted); }
    #drop.over { border-color: var(--accent); background: #eef4ff; }
    #file { position: absolute; width: 1px; height: 1px; opacity: 0; }
    #status { margin: 0; color: var(--muted); }
    #status[data-state=running], #status[data-state=queued], #status[data-state=uploading] { color: var(--accent); }
    #status[data-state=succeeded] { color: #1a7f37; }
    #problem { padding: .6rem .8rem; border: 1px solid #f1aeb5; border-radius: 6px; background: #fff5f5; color: #86181d; }
    #result { display: grid; grid-template-columns: minmax(0, 3fr) minmax(18rem, 2fr); gap: 1.2rem; margin-top: 1rem; align-items: start; }
    @media (max-width: 900px) { #result { grid-template-columns: 1fr; } }
    #pages { display: grid; gap: 1rem; }
    figure { margin: 0; background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: .5rem; }
    figcaption { color: var(--muted); font-size: .85rem; margin-bottom: .3rem; }
    svg.page { display: block; width: 100%; height: auto; max-height: 80vh; }
    svg .sheet { fill: #fff; stroke: var(--line); }
    svg .ghost { fill: #39404d; font-family: "DejaVu Sans", sans-serif; }
    svg .box { fill: none; vector-effect: non-scaling-stroke; }
    svg .line { stroke: var(--accent); stroke-width: 1.2; fill: rgba(31, 111, 235, .06); }
    svg .field { stroke: var(--field); stroke-width: 2.2; fill: rgba(232, 89, 12, .10); }
    svg .field.lit, svg .line.lit { stroke-width: 3.5; fill: rgba(232, 89, 12, .28); }
    #fields { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: .8rem 1rem; }
    #fields h2 { font-size: 1.05rem; margin: 0 0 .6rem; }
    dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem .9rem; margin: 0 0 .8rem; }
    dt { color: var(--muted); }
    dd { margin: 0; overflow-wrap: anywhere; }
    dd.has-box { cursor: default; border-bottom: 2px solid rgba(232, 89, 12, .35); }
    dd.lit { background: rgba(232, 89, 12, .15); }
    table { width: 100%; border-collapse: collapse; margin-bottom: .8rem; font-size: .92rem; }
    th, td { text-align: left; padding: .2rem .3rem; border-bottom: 1px solid var(--line); }
    td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
    tr.lit { background: rgba(232, 89, 12, .15); }
    details { margin: .4rem 0; }
    pre { white-space: pre-wrap; font-size: .85rem; background: var(--bg); padding: .5rem; border-radius: 6px; max-height: 24rem; overflow: auto; }
    #warnings { color: #9a6700; padding-left: 1.1rem; }
    """#

    static let script = #"""
    "use strict";
    (() => {
      const $ = (selector) => document.querySelector(selector);
      const SVG = "http://www.w3.org/2000/svg";
      const KEY_STORE = "scanextract.apiKey";
      const keysRequired = document.body.dataset.keys === "required";
      let imageURL = null;
      let lastDocument = null;

      // ---- the API key (only asked for when the server has keys) ----
      const keyInput = $("#api-key");
      if (keysRequired) {
        $("#key-row").hidden = false;
        keyInput.value = localStorage.getItem(KEY_STORE) || "";
      }
      keyInput.addEventListener("change", () => localStorage.setItem(KEY_STORE, keyInput.value.trim()));
      $("#forget-key").addEventListener("click", () => { localStorage.removeItem(KEY_STORE); keyInput.value = ""; });
      function authHeaders() {
        const key = keyInput.value.trim();
        return key ? { "Authorization": "Bearer " + key } : {};
      }

      // ---- status and problems ----
      function setStatus(state, text) {
        const status = $("#status");
        status.dataset.state = state;
        status.textContent = text;
      }
      function showProblem(title, detail) {
        $("#problem").hidden = false;
        $("#problem-title").textContent = title;
        $("#problem-detail").textContent = detail || "";
      }
      function clearProblem() { $("#problem").hidden = true; }
      class APIError extends Error {
        constructor(title, detail, status) { super(detail); this.title = title; this.detail = detail; this.status = status; }
      }
      async function call(path, options) {
        let response;
        try {
          response = await fetch(path, Object.assign({ cache: "no-store" }, options));
        } catch (error) {
          throw new APIError("The server cannot be reached", String(error.message || error), 0);
        }
        if (response.ok) return response;
        let title = response.status + " " + response.statusText, detail = "";
        try {
          const problem = await response.json();
          if (problem.title) title = problem.title;
          detail = problem.detail || "";
          if (problem.code) detail += " [" + problem.code + "]";
        } catch (_) { /* not problem+json */ }
        if (response.status === 401) {
          $("#key-row").hidden = false;
          keyInput.focus();
        }
        throw new APIError(title, detail, response.status);
      }

      // ---- choosing a file ----
      const drop = $("#drop");
      $("#file").addEventListener("change", (event) => { if (event.target.files[0]) run(event.target.files[0]); });
      ["dragenter", "dragover"].forEach((name) => drop.addEventListener(name, (event) => {
        event.preventDefault(); drop.classList.add("over");
      }));
      ["dragleave", "drop"].forEach((name) => drop.addEventListener(name, () => drop.classList.remove("over")));
      drop.addEventListener("drop", (event) => {
        event.preventDefault();
        const file = event.dataTransfer && event.dataTransfer.files[0];
        if (file) run(file);
      });
      // A file dropped beside the zone must not replace the page.
      window.addEventListener("dragover", (event) => event.preventDefault());
      window.addEventListener("drop", (event) => event.preventDefault());
      drop.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") $("#file").click(); });

      // ---- one run: upload, follow the job, show the result ----
      async function run(file) {
        clearProblem();
        $("#result").hidden = true;
        if (imageURL) URL.revokeObjectURL(imageURL);
        imageURL = URL.createObjectURL(file);
        const query = new URLSearchParams({ async: "true" });
        if ($("#type").value) query.set("type", $("#type").value);
        if ($("#country").value.trim()) query.set("country", $("#country").value.trim().toUpperCase());
        const form = new FormData();
        form.append("file", file, file.name);
        try {
          setStatus("uploading", "Uploading " + file.name + " (" + Math.ceil(file.size / 1024) + " KB)…");
          const started = performance.now();
          const created = await (await call("/v1/extractions?" + query, { method: "POST", body: form, headers: authHeaders() })).json();
          document.body.dataset.job = created.id;
          let job = created;
          while (!["succeeded", "failed", "canceled"].includes(job.status)) {
            const attempt = job.attempts > 1 ? " (attempt " + job.attempts + " of " + job.maxAttempts + ")" : "";
            setStatus(job.status, (job.status === "queued" ? "Queued" : "Running") + attempt + "…");
            job = await (await call("/v1/jobs/" + encodeURIComponent(created.id) + "?wait=20", { headers: authHeaders() })).json();
          }
          if (job.status !== "succeeded") {
            const error = job.error || {};
            setStatus(job.status, "The job " + job.status + ".");
            showProblem(job.status === "canceled" ? "Canceled" : "The extraction failed",
                        (error.message || "") + (error.code ? " [" + error.code + "]" : ""));
            return;
          }
          const result = await call("/v1/jobs/" + encodeURIComponent(created.id) + "/result",
                                    { headers: Object.assign({ "Accept": "application/json" }, authHeaders()) });
          const doc = await result.json();
          lastDocument = doc;
          await show(doc, file);
          const seconds = ((performance.now() - started) / 1000).toFixed(1);
          setStatus("succeeded", file.name + ": done in " + seconds + " s (" + (doc.engine ? doc.engine.name : "") + ").");
        } catch (error) {
          setStatus("failed", "Stopped.");
          if (error instanceof APIError) showProblem(error.title, error.detail);
          else showProblem("The page failed", String(error.message || error));
        }
      }

      $("#download").addEventListener("click", () => {
        if (!lastDocument) return;
        const blob = new Blob([JSON.stringify(lastDocument, null, 2)], { type: "application/json" });
        const link = document.createElement("a");
        link.href = URL.createObjectURL(blob);
        link.download = (lastDocument.source || "document").replace(/\.[^.]*$/, "") + ".json";
        link.click();
        setTimeout(() => URL.revokeObjectURL(link.href), 1000);
      });

      // ---- drawing the pages ----
      function loadImage(url) {
        return new Promise((resolve) => {
          const image = new Image();
          image.onload = () => resolve(image);
          image.onerror = () => resolve(null); // a PDF, a TIFF: the browser cannot show it
          image.src = url;
        });
      }
      function svg(name, attributes, parent) {
        const element = document.createElementNS(SVG, name);
        for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
        if (parent) parent.appendChild(element);
        return element;
      }
      function shape(box, quad, className, parent) {
        if (quad) {
          const points = [quad.topLeft, quad.topRight, quad.bottomRight, quad.bottomLeft].map((p) => p.x + "," + p.y).join(" ");
          return svg("polygon", { points, class: className }, parent);
        }
        return svg("rect", { x: box.x, y: box.y, width: box.width, height: box.height, class: className }, parent);
      }

      async function show(doc, file) {
        const pages = $("#pages");
        pages.replaceChildren();
        const isImage = file.type.startsWith("image/") || /\.(png|jpe?g|gif|bmp|webp)$/i.test(file.name);
        const image = isImage ? await loadImage(imageURL) : null;
        const fieldBoxes = collectFieldBoxes(doc);
        (doc.pages || []).forEach((page, index) => {
          const figure = document.createElement("figure");
          const caption = document.createElement("figcaption");
          const shown = image && index === 0;
          caption.textContent = "Page " + (index + 1) + " · " + Math.round(page.width) + "×" + Math.round(page.height)
            + (page.textSource === "pdf-text" ? " · PDF text layer" : "")
            + (shown ? "" : " · the text drawn where it was found");
          figure.appendChild(caption);
          const drawing = svg("svg", { viewBox: "0 0 " + page.width + " " + page.height, class: "page",
                                       role: "img", "aria-label": "page " + (index + 1) + " with its text boxes" });
          drawing.dataset.page = index;
          if (shown) {
            svg("image", { href: imageURL, x: 0, y: 0, width: page.width, height: page.height, preserveAspectRatio: "none" }, drawing);
          } else {
            svg("rect", { x: 0, y: 0, width: page.width, height: page.height, class: "sheet" }, drawing);
            for (const line of page.observations || []) {
              const box = line.boundingBox;
              const text = svg("text", { x: box.x, y: box.y + box.height * 0.8, "font-size": box.height * 0.8,
                                         textLength: box.width, lengthAdjust: "spacingAndGlyphs", class: "ghost" }, drawing);
              text.textContent = line.text;
            }
          }
          (page.observations || []).forEach((line, lineIndex) => {
            const element = shape(line.boundingBox, line.quad, "box line", drawing);
            element.dataset.line = lineIndex;
            svg("title", {}, element).textContent = line.text + " (" + Math.round(line.confidence * 100) + "%)";
          });
          for (const field of fieldBoxes.filter((f) => f.page === index)) {
            const element = shape(field.box, null, "box field", drawing);
            element.dataset.field = field.key;
            svg("title", {}, element).textContent = field.label + ": " + field.text;
          }
          figure.appendChild(drawing);
          pages.appendChild(figure);
        });
        showFields(doc);
        $("#result").hidden = false;
      }

      // Field boxes: receipt and card provenance, items, phones, e-mails, URLs.
      function collectFieldBoxes(doc) {
        const boxes = [];
        const add = (key, label, source) => {
          if (source && source.boundingBox) boxes.push({ key, label, page: source.page || 0, box: source.boundingBox, text: source.text });
        };
        const fields = doc.receipt || doc.businessCard;
        if (!fields) return boxes;
        for (const [path, source] of Object.entries(fields.provenance || {})) add(path, path, source);
        (fields.items || []).forEach((item, i) => add("item." + i, "item", item.source));
        (fields.phones || []).forEach((phone, i) => add("phone." + i, "phone", phone.source));
        (fields.emails || []).forEach((email, i) => add("email." + i, "e-mail", email.source));
        (fields.urls || []).forEach((url, i) => add("url." + i, "web", url.source));
        return boxes;
      }

      // ---- the fields ----
      function light(key, on) {
        document.querySelectorAll('[data-field="' + CSS.escape(key) + '"]').forEach((element) => element.classList.toggle("lit", on));
      }
      function row(list, label, value, key, boxKey) {
        if (value === undefined || value === null || value === "") return;
        const term = document.createElement("dt");
        term.textContent = label;
        const description = document.createElement("dd");
        description.textContent = value;
        description.dataset.field = key;
        if (boxKey) {
          description.classList.add("has-box");
          description.addEventListener("mouseenter", () => light(boxKey, true));
          description.addEventListener("mouseleave", () => light(boxKey, false));
        }
        list.append(term, description);
      }
      function showFields(doc) {
        const list = $("#field-list");
        list.replaceChildren();
        const items = $("#items");
        items.tBodies[0].replaceChildren();
        items.hidden = true;
        const type = doc.documentType ? doc.documentType.label : "other";
        const names = { receipt: "Receipt", businessCard: "Business card", other: "Document" };
        $("#doc-type").textContent = (names[type] || type)
          + (doc.documentType ? " (" + Math.round(doc.documentType.confidence * 100) + "%" + (doc.documentType.overridden ? ", as asked" : "") + ")" : "");
        const known = (path, source) => source && source.boundingBox ? path : null;
        if (doc.receipt) {
          const r = doc.receipt, p = r.provenance || {}, merchant = r.merchant || {};
          const currency = r.currency ? " (" + r.currency + ")" : "";
          row(list, "Merchant", merchant.name, "merchant", known("merchant.name", p["merchant.name"]));
          row(list, "Address", merchant.address, "merchant.address", known("merchant.address", p["merchant.address"]));
          row(list, "Phone", merchant.phone, "merchant.phone", known("merchant.phone", p["merchant.phone"]));
          row(list, "Tax ID", merchant.taxId, "merchant.taxId", known("merchant.taxId", p["merchant.taxId"]));
          row(list, "Date", [r.date, r.time].filter(Boolean).join(" "), "date", known("date", p.date));
          row(list, "Receipt no.", r.receiptNumber, "receiptNumber", known("receiptNumber", p.receiptNumber));
          row(list, "Subtotal" + currency, r.subtotal, "subtotal", known("subtotal", p.subtotal));
          (r.tax || []).forEach((tax, i) => row(list, "Tax" + (tax.rate ? " " + tax.rate + "%" : "") + currency, tax.amount, "tax." + i, null));
          row(list, "Tip" + currency, r.tip, "tip", known("tip", p.tip));
          row(list, "Discounts" + currency, r.discounts, "discounts", known("discounts", p.discounts));
          row(list, "Total" + currency, r.total, "total", known("total", p.total));
          if (r.payment) {
            const pay = r.payment;
            row(list, "Paid by", [pay.method, pay.cardBrand, pay.cardLast4 ? "…" + pay.cardLast4 : null].filter(Boolean).join(" "),
                "payment", known("payment.cardLast4", p["payment.cardLast4"]));
          }
          (r.items || []).forEach((item, i) => {
            const tr = items.tBodies[0].insertRow();
            tr.dataset.field = "item." + i;
            const cells = [item.description, item.quantity ? item.quantity + (item.unit ? " " + item.unit : "") : "",
                           item.unitPrice || "", item.amount || ""];
            cells.forEach((value, c) => {
              const cell = tr.insertCell();
              cell.textContent = value;
              if (c > 0) cell.className = "num";
            });
            tr.addEventListener("mouseenter", () => light("item." + i, true));
            tr.addEventListener("mouseleave", () => light("item." + i, false));
          });
          items.hidden = !(r.items || []).length;
        } else if (doc.businessCard) {
          const c = doc.businessCard, p = c.provenance || {};
          row(list, "Name", c.name && c.name.full, "name", known("name", p.name));
          row(list, "Title", c.title, "title", known("title", p.title));
          row(list, "Department", c.department, "department", known("department", p.department));
          row(list, "Organization", c.organization, "organization", known("organization", p.organization));
          (c.phones || []).forEach((phone, i) => row(list, "Phone (" + phone.type + ")", phone.number, "phone." + i, phone.source && phone.source.boundingBox ? "phone." + i : null));
          (c.emails || []).forEach((email, i) => row(list, "E-mail", email.address, "email." + i, email.source && email.source.boundingBox ? "email." + i : null));
          (c.urls || []).forEach((url, i) => row(list, "Web", url.url, "url." + i, url.source && url.source.boundingBox ? "url." + i : null));
          row(list, "Address", c.address && c.address.full, "address", known("address", p.address));
          (c.socialProfiles || []).forEach((profile, i) => row(list, profile.service || "Profile", profile.value, "social." + i, null));
        }
        if (!list.children.length) row(list, "Fields", "none: not a receipt or business card", "none", null);

        const entities = $("#entities");
        entities.replaceChildren();
        for (const entity of doc.entities || []) {
          const li = document.createElement("li");
          li.textContent = entity.type + ": " + entity.text;
          entities.appendChild(li);
        }
        $("#entities-box").hidden = !entities.children.length;
        $("#entities-box").open = !doc.receipt && !doc.businessCard;

        $("#text").textContent = (doc.pages || []).map((page) => {
          const blocks = page.layout && page.layout.blocks;
          if (blocks) return blocks.map((block) => block.lines.map((line) => line.text).join("\n")).join("\n\n");
          return (page.observations || []).map((line) => line.text).join("\n");
        }).join("\n\n\f\n\n");

        const warnings = $("#warnings");
        warnings.replaceChildren();
        for (const warning of doc.warnings || []) {
          const li = document.createElement("li");
          li.textContent = (warning.code || "warning") + ": " + (warning.message || "");
          warnings.appendChild(li);
        }
      }
    })();
    """#
}

extension HTTPField.Name {
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
