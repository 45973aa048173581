import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Dialog, DialogCancel, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { NativeSelect } from "~/components/ui/native-select";

type Customer = { id: number; name: string; code: string };

/**
 * The stock page's "Transfer boards": choose the customer (a child company), then the transfer page
 * for it. A GET form, so the choice is the next page's `company_id` with or without JavaScript.
 */
export function TransferBoardsDialog({ customers }: { customers: Customer[] }) {
  const { t } = useTranslation("lifecycle");
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button>{t("transferBoards")}</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t("transferChooseTitle")}</DialogTitle>
          <DialogDescription>{customers.length ? t("transferChooseDescription") : t("noCustomers")}</DialogDescription>
        </DialogHeader>
        {customers.length > 0 && (
          <Form method="get" action="/deviceTransfer" className="grid gap-4">
            <Field label={t("customer")} required>
              <NativeSelect name="company_id" required defaultValue={customers.length === 1 ? customers[0].id : ""}>
                <option value="">{t("choose")}</option>
                {customers.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name} ({c.code})
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <DialogFooter>
              <DialogCancel>{t("cancel")}</DialogCancel>
              <Button type="submit">{t("next")}</Button>
            </DialogFooter>
          </Form>
        )}
      </DialogContent>
    </Dialog>
  );
}
