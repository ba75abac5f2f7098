import type { Node, NodeProps } from '@xyflow/react';

export interface DepartmentBoxData extends Record<string, unknown> {
  name: string;
  width: number;
  height: number;
}
export type DepartmentFlowNode = Node<DepartmentBoxData, 'department'>;

/** A department's box behind its agents' cards, with its name on top. */
export function DepartmentBox({ data }: NodeProps<DepartmentFlowNode>) {
  return (
    <div className="department-box" style={{ width: data.width, height: data.height }}>
      <span className="department-box-name">{data.name}</span>
    </div>
  );
}
