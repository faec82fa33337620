// Fairness: today's published commitment, straight from GET /api/v1/daily.
import * as api from "../api.js";
import { date } from "../i18n.js";

const box = document.querySelector("[data-commitment]");
api.daily().then((daily) => {
  box.querySelector("[data-commitment-hash]").textContent = daily.commitment;
  const when = box.querySelector("[data-commitment-date]");
  when.textContent = date(daily.date);
  when.dateTime = daily.date;
  box.hidden = false;
}).catch(() => { /* the page reads well without it */ });
