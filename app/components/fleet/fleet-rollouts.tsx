import type { TFunction } from "i18next";
import { Badge } from "~/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { FleetRollout } from "~/services/fleet-rollouts.server";

/** Each running or paused firmware rollout's progress per customer company (decision 0094); nothing when none runs. */
export function FleetRollouts({ rollouts, t }: { rollouts: FleetRollout[]; t: TFunction }) {
  if (rollouts.length === 0) return null;
  return (
    <section aria-labelledby="fleet-rollouts" className="grid gap-4">
      <h2 id="fleet-rollouts" className="text-lg font-semibold">
        {t("rollouts.title")}
      </h2>
      {rollouts.map((r) => (
        <div key={r.id} className="grid gap-2">
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-medium">{t("rollouts.release", { version: r.version, type: r.deviceType })}</span>
            <Badge variant={r.state === "paused" ? "warning" : "success"}>{t(`rollouts.state.${r.state}`)}</Badge>
            <span className="text-muted-foreground">{t("rollouts.wave", { wave: r.wave + 1, total: r.waves })}</span>
          </p>
          <div className="overflow-x-auto rounded-md border">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("rollouts.company")}</TableHead>
                  <TableHead className="text-right">{t("rollouts.boards")}</TableHead>
                  <TableHead className="text-right">{t("rollouts.admitted")}</TableHead>
                  <TableHead className="text-right">{t("rollouts.installed")}</TableHead>
                  <TableHead className="text-right">{t("rollouts.failed")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {r.companies.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={5} className="text-muted-foreground">
                      {t("rollouts.none")}
                    </TableCell>
                  </TableRow>
                ) : (
                  r.companies.map((c) => (
                    <TableRow key={c.id}>
                      <TableCell>
                        <div>{c.name}</div>
                        <div className="text-xs text-muted-foreground">{c.deferredUntil ? t("rollouts.deferred", { code: c.code, date: c.deferredUntil }) : c.code}</div>
                      </TableCell>
                      <TableCell className="text-right">{c.boards}</TableCell>
                      <TableCell className="text-right">{c.admitted}</TableCell>
                      <TableCell className="text-right">{c.installed}</TableCell>
                      <TableCell className={c.failed > 0 ? "text-right font-medium text-destructive" : "text-right"}>{c.failed}</TableCell>
                    </TableRow>
                  ))
                )}
              </TableBody>
            </Table>
          </div>
        </div>
      ))}
    </section>
  );
}
