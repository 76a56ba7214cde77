/* The pack index: each puzzle's row marked solved, revealed or in
   progress, from what its player page saved in local storage (under the key
   the row carries).

   Leaves out: the table itself (written by generators/export/html.py) and
   the meaning of each status (common.js, PROGRESS). */
"use strict";

(() => {
  for (const cell of document.querySelectorAll("td.progress[data-storage-key]")) {
    const saved = Mobius.storage(cell.dataset.storageKey).load();
    const status = saved && typeof saved === "object" ? saved.status : null;
    if (typeof status !== "string" || !Object.hasOwn(Mobius.PROGRESS, status)) continue;
    cell.textContent = Mobius.PROGRESS[status];
    cell.closest("tr").dataset.progress = status;
  }
})();
