import * as React from "react";
import { cn } from "~/utils/cn";
import { useKeyboardScroll } from "./use-keyboard-scroll";

/** shadcn/ui's table parts, for static tables (the paged, sortable grids use `DataTable`). */
export const Table = React.forwardRef<HTMLTableElement, React.HTMLAttributes<HTMLTableElement>>(({ className, ...props }, ref) => {
  const scroll = useKeyboardScroll<HTMLDivElement>();
  return (
    <div {...scroll} className="relative w-full overflow-x-auto focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
      <table ref={ref} className={cn("w-full caption-bottom text-sm", className)} {...props} />
    </div>
  );
});
Table.displayName = "Table";

export const TableHeader = React.forwardRef<HTMLTableSectionElement, React.HTMLAttributes<HTMLTableSectionElement>>(({ className, ...props }, ref) => (
  <thead ref={ref} className={cn("text-left [&_tr]:border-b", className)} {...props} />
));
TableHeader.displayName = "TableHeader";

export const TableBody = React.forwardRef<HTMLTableSectionElement, React.HTMLAttributes<HTMLTableSectionElement>>(({ className, ...props }, ref) => (
  <tbody ref={ref} className={cn("[&_tr:last-child]:border-0", className)} {...props} />
));
TableBody.displayName = "TableBody";

export const TableFooter = React.forwardRef<HTMLTableSectionElement, React.HTMLAttributes<HTMLTableSectionElement>>(({ className, ...props }, ref) => (
  <tfoot ref={ref} className={cn("border-t-2 border-border font-semibold", className)} {...props} />
));
TableFooter.displayName = "TableFooter";

export const TableRow = React.forwardRef<HTMLTableRowElement, React.HTMLAttributes<HTMLTableRowElement>>(({ className, ...props }, ref) => (
  <tr ref={ref} className={cn("border-b border-border", className)} {...props} />
));
TableRow.displayName = "TableRow";

/** A column header; `numeric` right-aligns it like its cells. */
export const TableHead = React.forwardRef<HTMLTableCellElement, React.ThHTMLAttributes<HTMLTableCellElement> & { numeric?: boolean }>(
  ({ className, numeric, scope = "col", ...props }, ref) => (
    <th ref={ref} scope={scope} className={cn("px-3 py-2 text-xs font-medium text-muted-foreground", numeric && "text-right", className)} {...props} />
  ),
);
TableHead.displayName = "TableHead";

/** A cell; `numeric` right-aligns it with tabular figures. */
export const TableCell = React.forwardRef<HTMLTableCellElement, React.TdHTMLAttributes<HTMLTableCellElement> & { numeric?: boolean }>(({ className, numeric, ...props }, ref) => (
  <td ref={ref} className={cn("px-3 py-2", numeric && "text-right tabular-nums", className)} {...props} />
));
TableCell.displayName = "TableCell";

export const TableCaption = React.forwardRef<HTMLTableCaptionElement, React.HTMLAttributes<HTMLTableCaptionElement>>(({ className, ...props }, ref) => (
  <caption ref={ref} className={cn("mt-2 text-sm text-muted-foreground", className)} {...props} />
));
TableCaption.displayName = "TableCaption";
