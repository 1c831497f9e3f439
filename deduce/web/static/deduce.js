// deduce serve: entries and refreshes without reloading the page. Without this script
// every form still works (the server answers with the whole page).
(function () {
  "use strict";
  var FETCH = { "X-Deduce-Fetch": "1" };
  var live = document.getElementById("live");
  var offline = document.getElementById("offline");
  var busy = false;
  // The "why" question on show (a link's, or the page's own ?why=): a refresh after
  // another device's entry asks it again, so the answer stays open.
  var why = new URLSearchParams(window.location.search).get("why") || "";

  function reachable(ok) { if (offline) { offline.hidden = ok; } }

  function swap(data) {
    live.innerHTML = data.html;
    live.dataset.version = data.version;
  }

  function postForm(form) {
    var body = new URLSearchParams(new FormData(form));
    return fetch(form.getAttribute("action"), { method: "POST", body: body, headers: FETCH,
                                credentials: "same-origin" });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.classList.contains("new")) { return newRecord(event, form); }
    if (!live || !form.classList.contains("live")) { return; }
    event.preventDefault();
    if (busy) { return; }
    busy = true;
    why = "";
    var buttons = form.querySelectorAll("button");
    buttons.forEach(function (b) { b.disabled = true; });
    postForm(form)
      .then(function (r) { return r.json(); })
      .then(function (data) {
        reachable(true);
        swap(data);
        var box = document.getElementById("notice");
        if (box && data.kind !== "accepted") { box.scrollIntoView({ block: "center" }); }
      })
      .catch(function () {
        reachable(false);
        buttons.forEach(function (b) { b.disabled = false; });
      })
      .finally(function () { busy = false; });
  });

  function newRecord(event, form) {
    event.preventDefault();
    postForm(form)
      .then(function (r) { return r.json(); })
      .then(function (data) {
        if (data.kind === "accepted") { window.location.assign(data.location); return; }
        var box = document.getElementById("new-problem");
        if (!box) {
          box = document.createElement("div");
          box.id = "new-problem";
          box.className = "notice refused";
          box.setAttribute("role", "alert");
          form.parentNode.insertBefore(box, form);
        }
        box.textContent = "Refused: the record was not made. " + data.message;
        box.scrollIntoView({ block: "center" });
      })
      .catch(function () { form.submit(); });
  }

  function refresh(query) {
    return fetch(live.dataset.base + "/main" + query, { headers: FETCH, credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (data) { reachable(true); swap(data); });
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a.live-link");
    if (!live || !link) { return; }
    event.preventDefault();
    why = link.dataset.why;
    refresh("?why=" + encodeURIComponent(why)).then(function () {
      var answer = document.getElementById((link.hash || "#why").slice(1));
      if (answer) { answer.scrollIntoView({ block: "start" }); }
    }).catch(function () { reachable(false); });
  });

  // Another tab or device may enter too: look for a new version every 2 seconds.
  if (live) {
    window.setInterval(function () {
      if (busy || document.hidden) { return; }
      fetch(live.dataset.base + "/version", { headers: FETCH, credentials: "same-origin" })
        .then(function (r) { return r.json(); })
        .then(function (data) {
          reachable(true);
          if (!busy && data.version !== live.dataset.version) {
            return refresh("?changed=1" + (why ? "&why=" + encodeURIComponent(why) : ""));
          }
        })
        .catch(function () { reachable(false); });
    }, 2000);
  }
})();
