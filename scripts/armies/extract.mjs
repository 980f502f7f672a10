// Writes the compact extract the bot reads (bot/armies/data/40kdc.json) from the pinned 40kdc package, on stdout.
// Only what the bot uses: the battle sizes with their points limit and Detachment Point budget, factions,
// matched-play detachments with their Force Disposition, Detachment Points and type tags, units with their points
// brackets, enhancements with their cost. Sorted by id, so a regeneration of the same version is byte-identical.
import { readFileSync } from "node:fs";
import {
  factions, detachments, units, enhancements, detachmentCapForBattleSize, pointsLimitForBattleSize,
} from "@alpaca-software/40kdc-data";

const here = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"));
const pkg = here("./node_modules/@alpaca-software/40kdc-data/package.json");
// The battle sizes the package knows (its schema's enum): Incursion and Strike Force. Onslaught is not among them,
// so it has no Detachment Point budget in the data.
const common = here("./node_modules/@alpaca-software/40kdc-data/schemas/$defs/common.schema.json");
const sizes = common.$defs["battle-size"].enum;
const lock = here("./package-lock.json");

const raw = (record) => record.raw ?? record;
// Ids repeat across factions (every Space Marine chapter has a Gladius Task Force): sorted by id, then faction.
const key = (record) => `${record.id}\u0000${record.faction ?? ""}`;
const byId = (a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
const provisional = (record) => record.game_version?.dataslate === "pre-launch-provisional";
// Combat Patrol has its own detachments and units; the bot plays Incursion and Strike Force.
const matchedPlay = (record) => !(record.game_modes ?? []).includes("combat-patrol");

const extract = {
  source: {
    package: pkg.name,
    version: pkg.version,
    integrity: lock.packages[`node_modules/${pkg.name}`].integrity,
    licence: "CC BY 4.0",
    credit: "Army data: 40kdc (https://40kdc.alpacasoft.dev), CC BY 4.0",
  },
  battle_sizes: [...sizes].sort().map((id) => ({
    id, points: pointsLimitForBattleSize(id), detachment_points: detachmentCapForBattleSize(id),
  })),
  factions: factions.all.map(raw).map((f) => ({
    id: f.id, name: f.name, parent: f.parent_faction_id ?? null, provisional: provisional(f),
  })).sort(byId),
  detachments: detachments.all.map(raw).filter(matchedPlay).map((d) => ({
    id: d.id, name: d.name, faction: d.faction_id, disposition: d.force_dispositions[0] ?? null,
    detachment_points: d.detachment_points ?? null, tags: [...(d.tags ?? [])].sort(), provisional: provisional(d),
  })).sort(byId),
  units: units.all.map(raw).filter(matchedPlay).map((u) => ({
    id: u.id, name: u.name, faction: u.faction_id,
    points: (u.points ?? []).map((p) => [p.models, p.models_max ?? p.models, p.cost, p.unit_count_min ?? 1,
                                         p.unit_count_max ?? null]),
    provisional: Boolean(u.points_provisional) || provisional(u),
  })).sort(byId),
  enhancements: enhancements.all.map(raw).filter(matchedPlay).map((e) => ({
    id: e.id, name: e.name, detachment: e.detachment_id, cost: e.cost,
  })).sort(byId),
};
process.stdout.write(JSON.stringify(extract, null, 0).replace(/\},\{/g, "},\n{") + "\n");
