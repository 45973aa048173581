import { useTranslation } from "react-i18next";
import { PickList } from "~/components/ui/pick-list";
import type { DeviceOption } from "~/services/device-groups.server";

type Props = {
  /** The form field the group's devices post under, one id each. */
  name: string;
  available: DeviceOption[];
  inGroup: DeviceOption[];
  onMove: (device: DeviceOption, toGroup: boolean) => void;
  error?: string;
};

/**
 * The two moving lists of the group form: activating a device (click, Enter or Space on its
 * button) moves it to the other list. The group's devices post under `name`.
 */
export function DeviceTransfer({ name, available, inGroup, onMove, error }: Props) {
  const { t } = useTranslation("groups");
  return (
    <div className="grid gap-2">
      <p className="text-xs text-muted-foreground" id="device-move-hint">
        {t("form.moveHint")}
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        {(
          [
            { id: "available-devices", title: t("form.available"), empty: t("form.noneAvailable"), items: available, toGroup: true },
            { id: "group-devices", title: t("form.inGroup"), empty: t("form.noneInGroup"), items: inGroup, toGroup: false },
          ] as const
        ).map((list) => (
          <PickList
            key={list.id}
            id={list.id}
            title={list.title}
            empty={list.empty}
            items={list.items}
            onPick={(d) => onMove(d, list.toGroup)}
            describedBy="device-move-hint"
            invalid={!list.toGroup && !!error}
          >
            {deviceLabel}
          </PickList>
        ))}
      </div>
      {inGroup.map((d) => (
        <input key={d.id} type="hidden" name={name} value={d.id} />
      ))}
      {error && (
        <p id="group-devices-error" className="text-xs font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

const deviceLabel = (d: DeviceOption) => (
  <>
    {d.fullName}
    <span className="ml-2 text-xs text-muted-foreground">{d.serialNumber}</span>
  </>
);
