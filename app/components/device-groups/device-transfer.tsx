import { useTranslation } from "react-i18next";
import type { DeviceOption } from "~/services/device-groups.server";
import { cn } from "~/utils/cn";

type Props = {
  available: DeviceOption[];
  inGroup: DeviceOption[];
  onMove: (device: DeviceOption, toGroup: boolean) => void;
  error?: string;
};

/**
 * The two moving lists of the group form: activating a device (click, Enter or Space on its
 * button) moves it to the other list. The group's devices post as `available_devices`.
 */
export function DeviceTransfer({ available, inGroup, onMove, error }: Props) {
  const { t } = useTranslation("groups");
  return (
    <div className="grid gap-2">
      <p className="text-xs text-muted-foreground" id="device-move-hint">
        {t("form.moveHint")}
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        <DeviceList id="available-devices" title={t("form.available")} empty={t("form.noneAvailable")} devices={available} onPick={(d) => onMove(d, true)} />
        <DeviceList id="group-devices" title={t("form.inGroup")} empty={t("form.noneInGroup")} devices={inGroup} onPick={(d) => onMove(d, false)} invalid={!!error} />
      </div>
      {inGroup.map((d) => (
        <input key={d.id} type="hidden" name="available_devices" value={d.id} />
      ))}
      {error && (
        <p id="group-devices-error" className="text-xs font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

function DeviceList({ id, title, empty, devices, onPick, invalid }: { id: string; title: string; empty: string; devices: DeviceOption[]; onPick: (d: DeviceOption) => void; invalid?: boolean }) {
  return (
    <section aria-labelledby={`${id}-title`} className={cn("grid content-start gap-2 rounded-lg border p-3", invalid && "border-destructive")}>
      <h3 id={`${id}-title`} className="text-sm font-semibold">
        {title} <span className="font-normal text-muted-foreground">({devices.length})</span>
      </h3>
      {devices.length === 0 ? (
        <p className="text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ul className="max-h-64 overflow-y-auto" data-testid={id} aria-describedby="device-move-hint">
          {devices.map((d) => (
            <li key={d.id}>
              <button
                type="button"
                onClick={() => onPick(d)}
                className="w-full rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                {d.fullName}
                <span className="ml-2 text-xs text-muted-foreground">{d.serialNumber}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
