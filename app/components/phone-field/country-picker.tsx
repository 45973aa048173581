import { useMemo, type AriaAttributes } from "react";
import { useTranslation } from "react-i18next";
import { SearchPicker, type PickerOption } from "~/components/ui/search-picker";
import { fold } from "~/components/ui/search-picker-state";
import { countryOptions, type CountryOption } from "~/utils/phone";

type Props = {
  /** Set by `Field` (with the aria-* props below) so the label and errors point at the text box. */
  id?: string;
  /** The posted field: the chosen country's calling code ('34'). */
  name: string;
  /** The chosen region ('ES'). */
  region: string | undefined;
  onChange: (region: string) => void;
  disabled?: boolean;
} & Pick<AriaAttributes, "aria-describedby" | "aria-invalid" | "aria-required">;

/** A country matches by its name in the reader's language, its calling code ('+34', '34') or its region code ('ES'). */
function matches(o: CountryOption, query: string): boolean {
  const q = fold(query.trim());
  if (!q) return true;
  const code = q.replace(/^\+/, "");
  return fold(o.name).includes(q) || (/^\d+$/.test(code) && o.callingCode.startsWith(code)) || o.region.toLowerCase() === q;
}

/**
 * The country of a phone field: the search picker over every country, read as 'Spain (+34)'; the
 * choice posts its calling code. Names come from the browser's own region names, so no list ships with the page.
 */
export function CountryPicker({ name, region, onChange, ...rest }: Props) {
  const { t, i18n } = useTranslation("common");
  const { options, byRegion } = useMemo(() => {
    const countries = countryOptions(i18n.language);
    return {
      options: countries.map((o): PickerOption => ({ value: o.region, label: `${o.name} (+${o.callingCode})` })),
      byRegion: new Map(countries.map((o) => [o.region as string, o])),
    };
  }, [i18n.language]);
  const selected = options.find((o) => o.value === region);
  return (
    <SearchPicker
      {...rest}
      name={name}
      value={selected ? [selected] : []}
      onChange={(next) => next[0] && onChange(next[0].value)}
      source={{ options, match: (o, q) => matches(byRegion.get(o.value)!, q) }}
      postAs={(o) => byRegion.get(o.value)!.callingCode}
      texts={{ list: t("countryList"), noMatch: t("countryNoMatch") }}
    />
  );
}
