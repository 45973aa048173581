import type { TFunction } from "i18next";
import { nameCells, ActivityName, type ActivityLinkRights } from "./activity-columns";
import { summaryText } from "./activity-text";
import type { ActivityGridRow } from "./grid-row";

/**
 * One entry as a phone shows it (below 768 px, instead of the table's eight columns): badge and name,
 * the summary, then who, where and when, each only when the entry has it.
 */
export function activityCard(t: TFunction, rights: ActivityLinkRights) {
  const names = nameCells(rights);
  const lines = [
    ["triggeredBy", (r: ActivityGridRow) => r.createdByUser],
    ["user", (r: ActivityGridRow) => r.targetUser],
    ["device", (r: ActivityGridRow) => r.targetDevice],
    ["deviceGroup", (r: ActivityGridRow) => r.targetDeviceGroup],
  ] as const;
  return function ActivityCard(row: ActivityGridRow) {
    return (
      <article className="grid gap-1.5 text-sm" data-testid="activity-card">
        <ActivityName t={t} row={row} />
        {/* anywhere, not break-word: a grid item's long address must shrink its min-content, or the page widens */}
        <p className="[overflow-wrap:anywhere]">{summaryText(t, row)}</p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
          {lines.map(([key, has]) =>
            has(row) ? (
              <div key={key} className="contents">
                <dt className="text-muted-foreground">{t(`col.${key}`)}</dt>
                <dd className="[overflow-wrap:anywhere]">{names[key](row)}</dd>
              </div>
            ) : null,
          )}
          <dt className="text-muted-foreground">{t("col.trigger")}</dt>
          <dd>{t(`op.${row.operationType}`)}</dd>
          <dt className="text-muted-foreground">{t("col.date")}</dt>
          <dd>{row.when}</dd>
        </dl>
      </article>
    );
  };
}
