import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { NativeSelect } from "~/components/ui/native-select";
import type { CompanyCellInput } from "~/schemas/cells";

export type CellChoice = { name: string; label: string; mqttUrl: string };

/**
 * The company's gateway cell (docs/decisions/0050-cells.md), for the platform administrator: a move
 * redirects every board of the company to the other cell's gateways, so it is confirmed first.
 */
export function CompanyCellCard({ companyId, companyName, current, cells }: { companyId: number; companyName: string; current: string; cells: CellChoice[] }) {
  const { t } = useTranslation("companies");
  const [cell, setCell] = useState(current);
  useEffect(() => setCell(current), [current]);
  const target = cells.find((c) => c.name === cell);
  const posted = { intent: "cell", id: companyId, cell } satisfies Record<keyof CompanyCellInput | "intent", string | number>;
  const describe = (c: CellChoice) => `${c.label ? `${c.label} (${c.name})` : c.name} · ${c.mqttUrl}`;
  return (
    <Card className="max-w-3xl">
      <CardHeader>
        <CardTitle>{t("cell.title")}</CardTitle>
        <CardDescription>{t("cell.description", { cell: current })}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-end gap-3">
        <Field label={t("cell.label")} className="min-w-64 flex-1">
          <NativeSelect id="company-cell" value={cell} onChange={(e) => setCell(e.target.value)} options={cells.map((c) => ({ value: c.name, label: describe(c) }))} />
        </Field>
        <ConfirmDialog
          trigger={
            <Button type="button" variant="outline" disabled={cell === current}>
              {t("cell.move")}
            </Button>
          }
          title={t("cell.confirmTitle", { name: companyName, cell })}
          description={t("cell.confirmDescription", { from: current, to: cell, url: target?.mqttUrl ?? "" })}
          fields={posted}
          confirmLabel={t("cell.confirm")}
          cancelLabel={t("cancel")}
          destructive
        />
      </CardContent>
    </Card>
  );
}
