/* The pack index: each puzzle's row marked solved, revealed or in
   progress, from what its player page saved in local storage (under the key
   the row carries). The marks are read again when the page is shown from
   the browser's back-forward cache and when another tab saves progress.

   Leaves out: the table itself (written by generators/export/html.py) and
   the meaning of each status (common.js, PROGRESS). */
"use strict";

(() => {
  function mark() {
    for (const cell of document.querySelectorAll("td.progress[data-storage-key]")) {
      const saved = Mobius.storage(cell.dataset.storageKey).load();
      const status = saved && typeof saved === "object" ? saved.status : null;
      const known = typeof status === "string" && Object.hasOwn(Mobius.PROGRESS, status);
      cell.textContent = known ? Mobius.PROGRESS[status] : "";
      if (known) cell.closest("tr").dataset.progress = status;
      else delete cell.closest("tr").dataset.progress;
    }
  }

  mark();
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) mark();
  });
  window.addEventListener("storage", mark);
})();
